/**
 * The simulator's own reader of wire transactions (tools/chain-simulator/wire-reader.ts) reads
 * what @solana/kit's decoders read, for any legacy or version 0 message kit encodes, and refuses
 * what they refuse: signatures that do not match the message's signers. A message cut short is
 * refused wherever it ends.
 */
import fc from 'fast-check';
import { getAddressDecoder, getBase58Decoder, getCompiledTransactionMessageDecoder, getCompiledTransactionMessageEncoder, getTransactionDecoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { readMessage, readTransaction } from '../../tools/chain-simulator/wire-reader.ts';
import { decodeWire } from '../../tools/chain-simulator/wire.ts';

const address = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => getAddressDecoder().decode(bytes));
const indexes = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 });

const message = fc
  .record({
    version: fc.constantFrom('legacy' as const, 0 as const),
    signers: fc.integer({ min: 1, max: 3 }),
    readonlySigners: fc.integer({ min: 0, max: 2 }),
    readonlyNonSigners: fc.integer({ min: 0, max: 3 }),
    others: fc.array(address, { maxLength: 20 }),
    signerAddresses: fc.uniqueArray(address, { minLength: 3, maxLength: 3 }),
    lifetimeToken: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => getBase58Decoder().decode(bytes)),
    instructions: fc.array(fc.record({ programAddressIndex: fc.integer({ min: 0, max: 255 }), accountIndices: indexes, data: fc.uint8Array({ maxLength: 300 }) }), { maxLength: 8 }),
    lookups: fc.array(fc.record({ lookupTableAddress: address, writableIndexes: indexes, readonlyIndexes: indexes }), { maxLength: 3 }),
  })
  .map((m) => ({
    version: m.version,
    header: { numSignerAccounts: m.signers, numReadonlySignerAccounts: Math.min(m.readonlySigners, m.signers - 1), numReadonlyNonSignerAccounts: m.readonlyNonSigners },
    staticAccounts: [...m.signerAddresses.slice(0, m.signers), ...m.others],
    lifetimeToken: m.lifetimeToken,
    instructions: m.instructions,
    ...(m.version === 0 ? { addressTableLookups: m.lookups } : {}),
  }));

/** kit's decoding, in the reader's shape (kit leaves out empty account lists and data). */
function kitMessage(bytes: Uint8Array) {
  const decoded = getCompiledTransactionMessageDecoder().decode(bytes) as {
    version: 'legacy' | 0;
    header: object;
    staticAccounts: string[];
    lifetimeToken: string;
    instructions: Array<{ programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }>;
    addressTableLookups?: Array<{ lookupTableAddress: string; writableIndexes: number[]; readonlyIndexes: number[] }>;
  };
  return {
    version: decoded.version,
    header: decoded.header,
    staticAccounts: decoded.staticAccounts,
    lifetimeToken: decoded.lifetimeToken,
    instructions: decoded.instructions.map((ix) => ({ programAddressIndex: ix.programAddressIndex, accountIndices: [...(ix.accountIndices ?? [])], data: new Uint8Array(ix.data ?? []) })),
    addressTableLookups: (decoded.addressTableLookups ?? []).map((lookup) => ({ ...lookup, writableIndexes: [...lookup.writableIndexes], readonlyIndexes: [...lookup.readonlyIndexes] })),
  };
}

const wireOf = (signatures: Uint8Array[], messageBytes: Uint8Array) => new Uint8Array([signatures.length, ...signatures.flatMap((s) => [...s]), ...messageBytes]);

describe("the simulator's wire reader", () => {
  it("reads every message as kit's decoder does", () => {
    fc.assert(
      fc.property(message, (m) => {
        const bytes = new Uint8Array(getCompiledTransactionMessageEncoder().encode(m as never));
        expect(readMessage(bytes)).toEqual(kitMessage(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a message cut short anywhere, as a node does (kit reads some missing counts as zero)', () => {
    fc.assert(
      fc.property(message, fc.nat(), (m, cut) => {
        const bytes = new Uint8Array(getCompiledTransactionMessageEncoder().encode(m as never));
        expect(() => readMessage(bytes.subarray(0, cut % bytes.length))).toThrow(/the bytes end/);
      }),
      { numRuns: 300 },
    );
  });

  it("reads a transaction's signatures and message as kit does, and refuses signatures that do not match the signers", () => {
    fc.assert(
      fc.property(message, fc.array(fc.uint8Array({ minLength: 64, maxLength: 64 }), { minLength: 1, maxLength: 3 }), (m, signatures) => {
        const messageBytes = new Uint8Array(getCompiledTransactionMessageEncoder().encode(m as never));
        const wire = wireOf(signatures, messageBytes);
        expect(readTransaction(wire)).toEqual({ signatureBytes: signatures, messageBytes });
        if (signatures.length !== m.header.numSignerAccounts) {
          expect(() => getTransactionDecoder().decode(wire)).toThrow();
          expect(() => decodeWire(wire)).toThrow(/signatures for/);
          return;
        }
        const kit = getTransactionDecoder().decode(wire);
        const decoded = decodeWire(wire);
        const kitSignatures = Object.values(kit.signatures).map((s) => getBase58Decoder().decode(s ?? new Uint8Array(64)));
        expect(decoded.signatures).toEqual(kitSignatures);
        expect(decoded.messageBytes).toEqual(new Uint8Array(kit.messageBytes));
      }),
      { numRuns: 200 },
    );
  });
});
