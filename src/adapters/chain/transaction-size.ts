/**
 * The size on the wire of a transaction signed by its fee payer alone, counted from its
 * instructions without compiling them (decision 0053): compiling encodes every account address
 * from base58, and a batch compiled once per count it tried spent most of its preparation there
 * (bench chain-payin-backlog). A version 0 message:
 *
 *   signatures     compact-u16 count, 64 bytes each
 *   message        1 version byte, 3 header bytes, the static accounts (compact-u16 count, 32
 *                  bytes each: the fee payer, each instruction's accounts and program, once each,
 *                  but those loaded from a lookup table), the blockhash (32), the instructions
 *                  (compact-u16 count; each: its program's index, its accounts' indexes and its
 *                  data, both lists after a compact-u16 length), the lookup tables (compact-u16
 *                  count; each: its address, then its writable and its read-only indexes, each
 *                  list after a compact-u16 length, an address once per table)
 *
 * The instructions are the message's as kit compresses them
 * (`compressTransactionMessageUsingAddressLookupTables`): an account loaded from a table carries
 * `lookupTableAddress`. An address also used as a static key anywhere stays static.
 */
import { type Instruction, isWritableRole } from '@solana/kit';

const ADDRESS_BYTES = 32;
const SIGNATURE_BYTES = 64;

/** Bytes of Solana's compact-u16 length prefix. */
const compactU16Bytes = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : 3);

export function signedTransactionSize(feePayer: string, instructions: readonly Instruction[]): number {
  const accounts = new Set<string>([feePayer]);
  /** Per table, each address loaded from it and whether it is written. */
  const loaded = new Map<string, Map<string, boolean>>();
  let instructionBytes = compactU16Bytes(instructions.length);
  for (const instruction of instructions) {
    accounts.add(instruction.programAddress);
    const keys = instruction.accounts ?? [];
    for (const account of keys) {
      if (!('lookupTableAddress' in account)) {
        accounts.add(account.address);
        continue;
      }
      const table = loaded.get(account.lookupTableAddress) ?? new Map<string, boolean>();
      table.set(account.address, (table.get(account.address) ?? false) || isWritableRole(account.role));
      loaded.set(account.lookupTableAddress, table);
    }
    const data = instruction.data?.length ?? 0;
    instructionBytes += 1 + compactU16Bytes(keys.length) + keys.length + compactU16Bytes(data) + data;
  }
  let tables = 0;
  let lookupBytes = 0;
  for (const [, entries] of loaded) {
    const kept = [...entries].filter(([address]) => !accounts.has(address));
    if (kept.length === 0) continue;
    const writable = kept.filter(([, written]) => written).length;
    tables++;
    lookupBytes += ADDRESS_BYTES + compactU16Bytes(writable) + writable + compactU16Bytes(kept.length - writable) + kept.length - writable;
  }
  const message = 1 + 3 + compactU16Bytes(accounts.size) + ADDRESS_BYTES * accounts.size + ADDRESS_BYTES + instructionBytes + compactU16Bytes(tables) + lookupBytes;
  return compactU16Bytes(1) + SIGNATURE_BYTES + message;
}
