/**
 * The treasury's balances as the chain holds them (docs/architecture/treasury.md): SOL and each
 * configured token at the platform's treasury address. The port speaks of balances, never of RPC
 * methods; the sandbox chain has no on-chain treasury and says so (`onChain: false`), so
 * liquidity is then not limited and reconciliation has nothing to compare.
 */
import { decimal } from '../../lib/money.ts';

/** Currency symbol (a token's, or 'SOL') → balance, decimal text in whole units (SOL: 9 decimals). */
export type TreasuryBalances = Map<string, string>;

/** Treasury wallet n (decision 0057: 1 is the TREASURY key) → its balances. */
export type WalletBalances = Map<number, TreasuryBalances>;

/** Every wallet's balances added up per currency. */
export function totalOf(wallets: WalletBalances): TreasuryBalances {
  const total: TreasuryBalances = new Map();
  for (const balances of wallets.values()) {
    for (const [currency, balance] of balances) total.set(currency, decimal(total.get(currency) ?? '0').plus(balance).toString());
  }
  return total;
}

export interface TreasuryBalanceReader {
  readonly kind: 'solana-rpc' | 'sandbox';
  /** False for the sandbox chain: no treasury on chain, balances not applicable. */
  readonly onChain: boolean;
  /** Wallet 1's address; null when not on chain. */
  readonly address: string | null;
  /** Every treasury wallet's address, wallet 1 first (decision 0057); none when not on chain. */
  readonly addresses: readonly string[];
  /** The currencies it reads: 'SOL' first, then each configured token. */
  readonly currencies: readonly string[];
  /**
   * Every wallet's balance of every currency now; a token account that does not exist is 0.
   * Throws ChainUnavailableError (transactions-port.ts) when the node cannot answer. The sandbox
   * answers an empty map.
   */
  readBalances(): Promise<WalletBalances>;
}

/** The sandbox chain's: nothing on chain, so nothing to read and no limit to apply. */
export function createSandboxTreasuryReader(): TreasuryBalanceReader {
  return { kind: 'sandbox', onChain: false, address: null, addresses: [], currencies: [], readBalances: async () => new Map() };
}
