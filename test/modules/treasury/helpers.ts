/**
 * A treasury on chain for tests: balances the test sets, a node that can be made to fail, and a
 * count of reads (the liquidity check must not read the node per request).
 */
import { ChainUnavailableError } from '../../../src/adapters/chain/transactions-port.ts';
import type { TreasuryBalanceReader } from '../../../src/adapters/chain/treasury-port.ts';

export const TREASURY_ADDRESS = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
/** Treasury wallet 2's address (decision 0057), for the tests of several wallets. */
export const SECOND_WALLET_ADDRESS = 'BPFLoaderUpgradeab1e11111111111111111111111';

/** `initial`: wallet 1's balances; `others`: wallet 2's (and on), when the treasury has several wallets. */
export function fakeTreasury(initial: Record<string, string>, ...others: Array<Record<string, string>>) {
  const state = { balances: new Map(Object.entries(initial)), others: others.map((o) => new Map(Object.entries(o))), failing: false, hanging: false, reads: 0 };
  const reader: TreasuryBalanceReader = {
    kind: 'solana-rpc',
    onChain: true,
    address: TREASURY_ADDRESS,
    addresses: [TREASURY_ADDRESS, ...others.map((_, i) => (i === 0 ? SECOND_WALLET_ADDRESS : `${TREASURY_ADDRESS.slice(0, -1)}${i + 2}`))],
    currencies: Object.keys(initial),
    async readBalances() {
      state.reads += 1;
      if (state.hanging) return new Promise<never>(() => {});
      if (state.failing) throw new ChainUnavailableError('Solana RPC getBalance failed: 503');
      return new Map([state.balances, ...state.others].map((balances, i) => [i + 1, new Map(balances)]));
    },
  };
  return {
    reader,
    state,
    set(currency: string, balance: string, wallet = 1) {
      (wallet === 1 ? state.balances : state.others[wallet - 2]!).set(currency, balance);
    },
  };
}
