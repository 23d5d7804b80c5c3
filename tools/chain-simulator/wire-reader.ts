/**
 * A wire transaction's bytes read as a node reads them: the signatures, then the compiled message
 * (an optional version byte, the header, the static keys, the blockhash, the instructions and, in
 * version 0, the address table lookups), every count a compact-u16. Written here rather than with
 * @solana/kit's decoders, which turn each key into base58 through a BigInt: a fifth of the
 * simulator's CPU in a backlog of batched transfers (bench chain-payin-backlog). Agreement with
 * kit's decoders is property-tested (test/tools/chain-simulator-wire-reader.test.ts). Bytes that
 * end early are refused, as a node refuses them (kit reads some missing counts as zero).
 */
import type { Address } from '@solana/kit';
import { encodeBase58 } from '../../src/lib/base58.ts';

export interface ReadInstruction {
  programAddressIndex: number;
  accountIndices: number[];
  data: Uint8Array;
}

export interface ReadMessage {
  version: 'legacy' | 0;
  header: { numSignerAccounts: number; numReadonlySignerAccounts: number; numReadonlyNonSignerAccounts: number };
  staticAccounts: Address[];
  lifetimeToken: string;
  instructions: ReadInstruction[];
  addressTableLookups: Array<{ lookupTableAddress: Address; writableIndexes: number[]; readonlyIndexes: number[] }>;
}

/** A cursor over bytes that throws at the first read past their end. */
function cursor(bytes: Uint8Array) {
  let at = 0;
  const take = (length: number) => {
    if (at + length > bytes.length) throw new Error(`the bytes end at ${bytes.length}, ${length} more needed at ${at}`);
    const slice = bytes.subarray(at, at + length);
    at += length;
    return slice;
  };
  const byte = () => take(1)[0]!;
  /** A compact-u16: seven bits a byte, low first, at most three bytes. */
  const length = () => {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const next = byte();
      value |= (next & 0x7f) << (7 * i);
      if ((next & 0x80) === 0) return value;
    }
    throw new Error('a compact-u16 longer than three bytes');
  };
  const many = <T>(read: () => T): T[] => Array.from({ length: length() }, read);
  const address = () => encodeBase58(take(32)) as Address;
  return { take, byte, length, many, address, rest: () => take(bytes.length - at) };
}

export function readMessage(bytes: Uint8Array): ReadMessage {
  const read = cursor(bytes);
  const first = read.byte();
  const versioned = (first & 0x80) !== 0;
  if (versioned && (first & 0x7f) !== 0) throw new Error(`unsupported transaction version ${first & 0x7f}`);
  const header = { numSignerAccounts: versioned ? read.byte() : first, numReadonlySignerAccounts: read.byte(), numReadonlyNonSignerAccounts: read.byte() };
  const staticAccounts = read.many(read.address);
  const lifetimeToken = encodeBase58(read.take(32));
  const instructions = read.many(() => ({ programAddressIndex: read.byte(), accountIndices: read.many(read.byte), data: new Uint8Array(read.take(read.length())) }));
  const addressTableLookups = versioned ? read.many(() => ({ lookupTableAddress: read.address(), writableIndexes: read.many(read.byte), readonlyIndexes: read.many(read.byte) })) : [];
  return { version: versioned ? 0 : 'legacy', header, staticAccounts, lifetimeToken, instructions, addressTableLookups };
}

/** The signatures (64 bytes each, all zeros where absent) and the message's bytes. */
export function readTransaction(wire: Uint8Array): { signatureBytes: Uint8Array[]; messageBytes: Uint8Array } {
  const read = cursor(wire);
  const signatureBytes = read.many(() => new Uint8Array(read.take(64)));
  return { signatureBytes, messageBytes: new Uint8Array(read.rest()) };
}
