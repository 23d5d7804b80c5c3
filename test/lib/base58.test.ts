import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase58, encodeBase58 } from '../../src/lib/base58.ts';

// kit's names are the other way round: its "decoder" reads bytes into text.
const kitText = (bytes: Uint8Array) => getBase58Decoder().decode(bytes);
const kitBytes = (text: string) => new Uint8Array(getBase58Encoder().encode(text));
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

// Leading zero bytes / '1's are the special case of base58: bias the generators towards them.
const bytes = fc.oneof(
  fc.uint8Array({ minLength: 0, maxLength: 80 }),
  fc.tuple(fc.integer({ min: 0, max: 5 }), fc.uint8Array({ minLength: 0, maxLength: 70 })).map(([zeros, rest]) => new Uint8Array([...new Uint8Array(zeros), ...rest])),
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
  fc.uint8Array({ minLength: 64, maxLength: 64 }),
);
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 100 }),
  fc.tuple(fc.string({ unit: fc.constant('1'), maxLength: 5 }), fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 90 })).map(([ones, rest]) => ones + rest),
);

describe('base58 (table-driven) against @solana/kit', () => {
  it('writes the same text as kit for any bytes', () => {
    fc.assert(fc.property(bytes, (value) => {
      expect(encodeBase58(value)).toBe(kitText(value));
    }), { numRuns: 3000 });
  });

  it('reads the same bytes as kit for any text of the alphabet, and round-trips', () => {
    fc.assert(
      fc.property(text, (value) => {
        const decoded = decodeBase58(value);
        expect(decoded).toEqual(kitBytes(value));
        expect(encodeBase58(decoded)).toBe(value);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what kit refuses: any character outside the alphabet', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('0', 'O', 'I', 'l', '+', '/', ' ', 'é', '\u{1F600}'), fc.nat(), (value, bad, at) => {
        const position = value.length === 0 ? 0 : at % value.length;
        const broken = value.slice(0, position) + bad + value.slice(position);
        expect(() => kitBytes(broken)).toThrow();
        expect(() => decodeBase58(broken)).toThrow(/invalid base58 character/);
      }),
    );
  });

  it('known values: zero bytes, a Solana address, the empty string', () => {
    expect(encodeBase58(new Uint8Array(32))).toBe('11111111111111111111111111111111');
    expect(decodeBase58('11111111111111111111111111111111')).toEqual(new Uint8Array(32));
    expect(encodeBase58(decodeBase58('4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'))).toBe('4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T');
    expect(encodeBase58(new Uint8Array())).toBe('');
    expect(decodeBase58('')).toEqual(new Uint8Array());
  });
});
