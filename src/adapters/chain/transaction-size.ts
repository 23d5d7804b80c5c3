/**
 * The size on the wire of a transaction signed by its fee payer alone, counted from its
 * instructions without compiling them (decision 0053): compiling encodes every account address
 * from base58, and a batch compiled once per count it tried spent most of its preparation there
 * (bench chain-payin-backlog). A version 0 message without lookup tables:
 *
 *   signatures     compact-u16 count, 64 bytes each
 *   message        1 version byte, 3 header bytes, the accounts (compact-u16 count, 32 bytes each:
 *                  the fee payer, each instruction's accounts and program, once each), the
 *                  blockhash (32), the instructions (compact-u16 count; each: its program's
 *                  index, its accounts' indexes and its data, both lists after a compact-u16
 *                  length), the lookup tables (compact-u16 count: 0)
 */
import type { Instruction } from '@solana/kit';

const ADDRESS_BYTES = 32;
const SIGNATURE_BYTES = 64;

/** Bytes of Solana's compact-u16 length prefix. */
const compactU16Bytes = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : 3);

export function signedTransactionSize(feePayer: string, instructions: readonly Instruction[]): number {
  const accounts = new Set<string>([feePayer]);
  let instructionBytes = compactU16Bytes(instructions.length);
  for (const instruction of instructions) {
    accounts.add(instruction.programAddress);
    const keys = instruction.accounts ?? [];
    for (const account of keys) accounts.add(account.address);
    const data = instruction.data?.length ?? 0;
    instructionBytes += 1 + compactU16Bytes(keys.length) + keys.length + compactU16Bytes(data) + data;
  }
  const message = 1 + 3 + compactU16Bytes(accounts.size) + ADDRESS_BYTES * accounts.size + ADDRESS_BYTES + instructionBytes + compactU16Bytes(0);
  return compactU16Bytes(1) + SIGNATURE_BYTES + message;
}
