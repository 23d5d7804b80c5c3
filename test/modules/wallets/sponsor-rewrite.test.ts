/**
 * The sponsored rewrite: a message whose fee payer is already the sponsor keeps its bytes and
 * only gets the new blockhash, and the result is exactly what recompiling with @solana/kit gives.
 */
import {
  type Address,
  type Blockhash,
  compileTransaction,
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  getTransactionEncoder,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { rewriteForSponsor } from '../../../src/modules/wallets/sponsor.ts';
import { decodeBase64, decodeTransaction } from '../../../src/modules/wallets/transaction.ts';
import { buildTransaction, computeUnitPrice, memo, newAddress, transferSol } from './helpers.ts';

function recompiledByKit(wire: string, sponsor: string, blockhash: string) {
  const decoded = decodeTransaction(decodeBase64(wire));
  const message = decompileTransactionMessage(decoded.compiled as Parameters<typeof decompileTransactionMessage>[0]);
  return compileTransaction(
    setTransactionMessageLifetimeUsingBlockhash(
      { blockhash: blockhash as Blockhash, lastValidBlockHeight: 1n },
      setTransactionMessageFeePayer(sponsor as Address, message),
    ),
  );
}

describe('rewriteForSponsor', () => {
  for (const version of ['legacy', 0] as const) {
    it(`with the sponsor already paying (${version}), replaces only the blockhash, byte for byte as kit would`, () => {
      const sponsor = newAddress();
      const managed = newAddress();
      const blockhash = newAddress();
      const wire = buildTransaction(sponsor, [computeUnitPrice(5n), memo(managed, 'hello'), transferSol(managed, newAddress(), 10n)], version);
      const decoded = decodeTransaction(decodeBase64(wire));
      const rewritten = rewriteForSponsor(decoded, sponsor, { blockhash, lastValidBlockHeight: 1n });

      const expected = recompiledByKit(wire, sponsor, blockhash);
      expect(Buffer.from(rewritten.transaction.messageBytes)).toEqual(Buffer.from(expected.messageBytes));
      expect(Object.keys(rewritten.transaction.signatures)).toEqual(Object.keys(expected.signatures));
      expect(Object.values(rewritten.transaction.signatures).every((signature) => signature === null)).toBe(true);
      expect(getCompiledTransactionMessageDecoder().decode(rewritten.transaction.messageBytes).lifetimeToken).toBe(blockhash);
      expect(rewritten.view).toEqual(decoded.view);
    });
  }

  it('finds the blockhash after a key count written in more bytes than it needs', () => {
    const sponsor = newAddress();
    const managed = newAddress();
    const blockhash = newAddress();
    const minimal = decodeTransaction(decodeBase64(buildTransaction(sponsor, [memo(managed, 'x')], 'legacy')));
    const bytes = new Uint8Array(minimal.transaction.messageBytes);
    // Legacy: 3 header bytes, then the count; rewrite it as two bytes (count | 0x80, 0x00).
    const padded = new Uint8Array([...bytes.slice(0, 3), bytes[3]! | 0x80, 0, ...bytes.slice(4)]);
    const wire = getTransactionEncoder().encode({ ...minimal.transaction, messageBytes: padded as never });
    const decoded = decodeTransaction(new Uint8Array(wire));
    expect(decoded.view.staticAccounts).toEqual(minimal.view.staticAccounts);
    const rewritten = rewriteForSponsor(decoded, sponsor, { blockhash, lastValidBlockHeight: 1n });
    const reread = getCompiledTransactionMessageDecoder().decode(rewritten.transaction.messageBytes);
    expect(reread.lifetimeToken).toBe(blockhash);
    expect(reread.staticAccounts.map(String)).toEqual(minimal.view.staticAccounts);
  });

  it('with another fee payer, recompiles with the sponsor as account 0', () => {
    const sponsor = newAddress();
    const managed = newAddress();
    const blockhash = newAddress();
    const decoded = decodeTransaction(decodeBase64(buildTransaction(managed, [memo(managed, 'x')])));
    const rewritten = rewriteForSponsor(decoded, sponsor, { blockhash, lastValidBlockHeight: 1n });
    expect(rewritten.view.staticAccounts[0]).toBe(sponsor);
    expect(getCompiledTransactionMessageDecoder().decode(rewritten.transaction.messageBytes).lifetimeToken).toBe(blockhash);
  });
});
