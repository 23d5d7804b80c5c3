import { describe, expect, it } from 'vitest';
import { shareChainCosts } from '../../src/lib/chain-cost-shares.ts';

describe('a batched transfer’s chain costs shared out to its orders (decision 0053)', () => {
  const sum = (shares: Map<string, { feeLamports: bigint; rentLamports: bigint }>) =>
    [...shares.values()].reduce((total, s) => ({ fee: total.fee + s.feeLamports, rent: total.rent + s.rentLamports }), { fee: 0n, rent: 0n });

  it('the fee evenly, the remainder lamports to the first order; the rent to the orders that created accounts', () => {
    const shares = shareChainCosts(['a', 'b', 'c'], ['b', 'c'], { feeLamports: 5003n, rentLamports: 4078561n });
    expect(shares.get('a')).toEqual({ feeLamports: 1669n, rentLamports: 0n });
    expect(shares.get('b')).toEqual({ feeLamports: 1667n, rentLamports: 2039281n });
    expect(shares.get('c')).toEqual({ feeLamports: 1667n, rentLamports: 2039280n });
    expect(sum(shares)).toEqual({ fee: 5003n, rent: 4078561n });
  });

  it('rent with no creator recorded goes to the first order; every lamport once', () => {
    const shares = shareChainCosts(['a', 'b'], [], { feeLamports: 5000n, rentLamports: 2039280n });
    expect(shares.get('a')).toEqual({ feeLamports: 2500n, rentLamports: 2039280n });
    expect(shares.get('b')).toEqual({ feeLamports: 2500n, rentLamports: 0n });
  });

  it('one order takes everything', () => {
    expect(shareChainCosts(['a'], ['a'], { feeLamports: 5000n, rentLamports: 2039280n }).get('a')).toEqual({ feeLamports: 5000n, rentLamports: 2039280n });
  });
});
