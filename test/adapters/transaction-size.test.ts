/**
 * A batch's size counted without compiling (src/adapters/chain/transaction-size.ts) is the size
 * @solana/kit compiles and signs, byte for byte, for any mix of the batch's instructions: token
 * accounts created or not, receivers repeated, memos short and long, with and without a priority
 * fee, accounts loaded from lookup tables or not. The batch preparer takes the count from it and
 * compiles once.
 */
import { type Address, type Blockhash, compileTransaction, createNoopSigner, getBase64EncodedWireTransaction, type Instruction } from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getAddMemoInstruction } from '@solana-program/memo';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signedTransactionSize } from '../../src/adapters/chain/transaction-size.ts';
import { batchMessage, randomAddress } from '../helpers/batch-messages.ts';

const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL' as Address;

describe('the size of a signed transfer batch, counted without compiling', () => {
  it('equals the compiled and signed transaction, for any mix of the batch instructions', () => {
    const payer = randomAddress();
    const signer = createNoopSigner(payer);
    const mint = randomAddress();
    const source = randomAddress();
    const receivers = Array.from({ length: 6 }, () => ({ owner: randomAddress(), ata: randomAddress() }));
    // Up to three lookup tables, each holding some of the receivers' token accounts (a receiver in
    // two tables, in none, or the same table twice over are all possible).
    const tableAddresses = Array.from({ length: 3 }, randomAddress);
    const tablesOfReceivers = fc.array(fc.array(fc.integer({ min: 0, max: receivers.length - 1 }), { maxLength: 6 }), { maxLength: 3 });
    const transfer = fc.record({ receiver: fc.integer({ min: 0, max: receivers.length - 1 }), create: fc.boolean(), amount: fc.bigInt({ min: 1n, max: 2n ** 64n - 1n }) });
    fc.assert(
      fc.property(fc.array(transfer, { minLength: 1, maxLength: 25 }), fc.boolean(), fc.oneof(fc.string(), fc.integer({ min: 100, max: 600 }).map((n) => 'x'.repeat(n))), tablesOfReceivers, (transfers, priced, memo, tables) => {
        const instructions: Instruction[] = [
          getSetComputeUnitLimitInstruction({ units: 60_000 * transfers.length }),
          ...(priced ? [getSetComputeUnitPriceInstruction({ microLamports: 1_000n })] : []),
        ];
        for (const t of transfers) {
          const { owner, ata } = receivers[t.receiver]!;
          if (t.create) instructions.push(getCreateAssociatedTokenIdempotentInstruction({ payer: signer, ata, owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }, { programAddress: ATA_PROGRAM }));
          instructions.push(getTransferCheckedInstruction({ source, mint, destination: ata, authority: signer, amount: t.amount, decimals: 6 }));
        }
        instructions.push(getAddMemoInstruction({ memo }));
        const held = Object.fromEntries(tables.map((receiversHeld, i) => [tableAddresses[i]!, receiversHeld.map((r) => receivers[r]!.ata)]));
        const message = batchMessage(payer, randomAddress() as string as Blockhash, instructions, held);
        const wire = Buffer.from(getBase64EncodedWireTransaction(compileTransaction(message)), 'base64');
        expect(signedTransactionSize(payer, message.instructions)).toBe(wire.length);
      }),
      { numRuns: 200 },
    );
  });
});
