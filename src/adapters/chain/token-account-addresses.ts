/**
 * Associated token account addresses, remembered. Deriving one (a program address: SHA-256 over
 * the seeds, then a curve check, repeated per bump) took about 0.4 ms of CPU per order in the
 * transfer batches' profile (bench chain-payin-backlog), for an answer that never changes for the
 * same owner, mint and token program. The treasury's account and the regular receivers' are
 * asked for again and again; the map is bounded so a stream of one-off receivers cannot grow it.
 */
import type { Address } from '@solana/kit';
import { findAssociatedTokenPda } from '@solana-program/token';

/** Addresses kept at most; past it the oldest half is forgotten (insertion order). */
const KEPT = 10_000;

export interface TokenAccountKey {
  owner: Address;
  mint: Address;
  tokenProgram: Address;
}

export function createTokenAccountAddresses(kept = KEPT): (key: TokenAccountKey) => Promise<Address> {
  const known = new Map<string, Promise<Address>>();
  return (key) => {
    const id = `${key.owner}:${key.mint}:${key.tokenProgram}`;
    let found = known.get(id);
    if (!found) {
      if (known.size >= kept) for (const old of [...known.keys()].slice(0, Math.ceil(kept / 2))) known.delete(old);
      found = findAssociatedTokenPda(key).then(([pda]) => pda);
      // A failed derivation (not expected: a valid owner always has one) is not remembered.
      found.catch(() => known.delete(id));
      known.set(id, found);
    }
    return found;
  };
}
