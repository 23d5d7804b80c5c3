/**
 * What the batch preparer's property tests share (transaction-size, compute-unit-limit): random
 * addresses, and a version 0 message of given instructions with its accounts compressed through
 * lookup tables, as src/adapters/chain/solana-batch.ts builds one.
 */
import { randomBytes } from 'node:crypto';
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  getAddressDecoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';

export const randomAddress = () => getAddressDecoder().decode(randomBytes(32));

/** A version 0 message from `payer` on `blockhash`; each table (address → the addresses it holds) loads what it holds. */
export function batchMessage(payer: Address, blockhash: Blockhash, instructions: readonly Instruction[], tables: Record<Address, Address[]>) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: 100n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
    (m) => compressTransactionMessageUsingAddressLookupTables(m, tables),
  );
}
