/**
 * The treasury's balances as the chain holds them (docs/architecture/treasury.md): SOL and each
 * configured token at the platform's treasury address. The port speaks of balances, never of RPC
 * methods; the sandbox chain has no on-chain treasury and says so (`onChain: false`), so
 * liquidity is then not limited and reconciliation has nothing to compare.
 */

/** Currency symbol (a token's, or 'SOL') → balance, decimal text in whole units (SOL: 9 decimals). */
export type TreasuryBalances = Map<string, string>;

export interface TreasuryBalanceReader {
  readonly kind: 'solana-rpc' | 'sandbox';
  /** False for the sandbox chain: no treasury on chain, balances not applicable. */
  readonly onChain: boolean;
  /** The treasury's address; null when not on chain. */
  readonly address: string | null;
  /** The currencies it reads: 'SOL' first, then each configured token. */
  readonly currencies: readonly string[];
  /**
   * Every currency's balance now; a token account that does not exist is 0. Throws
   * ChainUnavailableError (transactions-port.ts) when the node cannot answer. The sandbox answers
   * an empty map.
   */
  readBalances(): Promise<TreasuryBalances>;
}

/** The sandbox chain's: nothing on chain, so nothing to read and no limit to apply. */
export function createSandboxTreasuryReader(): TreasuryBalanceReader {
  return { kind: 'sandbox', onChain: false, address: null, currencies: [], readBalances: async () => new Map<string, string>() };
}
