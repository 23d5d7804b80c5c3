/**
 * A treasury on chain for tests: balances the test sets, a node that can be made to fail, and a
 * count of reads (the liquidity check must not read the node per request).
 */
import { ChainUnavailableError } from '../../../src/adapters/chain/transactions-port.ts';
import type { TreasuryBalanceReader } from '../../../src/adapters/chain/treasury-port.ts';

export const TREASURY_ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

export function fakeTreasury(initial: Record<string, string>) {
  const state = { balances: new Map(Object.entries(initial)), failing: false, hanging: false, reads: 0 };
  const reader: TreasuryBalanceReader = {
    kind: 'solana-rpc',
    onChain: true,
    address: TREASURY_ADDRESS,
    currencies: Object.keys(initial),
    async readBalances() {
      state.reads += 1;
      if (state.hanging) return new Promise<never>(() => {});
      if (state.failing) throw new ChainUnavailableError('Solana RPC getBalance failed: 503');
      return new Map(state.balances);
    },
  };
  return {
    reader,
    state,
    set(currency: string, balance: string) {
      state.balances.set(currency, balance);
    },
  };
}
