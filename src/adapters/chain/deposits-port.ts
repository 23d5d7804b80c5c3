/**
 * What the deposit watcher asks of a chain (docs/architecture/chain.md, "PAYOUT deposits"): where a
 * deposit address receives a token, which transactions touched that account since the last one
 * read, and how much of the expected mint each left in it. Narrow like the orders' port: the
 * watcher speaks of accounts and signatures, never of RPC methods. Account subscriptions (a
 * wake-up when an account changes) are AccountWatch, beside it.
 */
export type { AccountWatch } from './solana-account-subscriptions.ts';

export interface DepositAccount {
  /** The token's mint address, base58. */
  mint: string;
  /** The owner's associated token account for that mint, base58: where wallets send the token. */
  tokenAccount: string;
}

export interface AccountSignature {
  signature: string;
  /** Landed with an error: it moved nothing. */
  failed: boolean;
  /** The block's time, when the node reports it (getSignaturesForAddress's blockTime), else null. */
  blockTime: Date | null;
}

export interface Received {
  /** Token units, decimal text. */
  amount: string;
  /** Base units, decimal text; null when the transaction does not report it (failed). */
  balanceAfter: string | null;
}

export interface DepositChain {
  tokenAccountOf(owner: string, token: string): Promise<DepositAccount>;
  /**
   * The balance of each token account, in base units as decimal text (null when the account does
   * not exist), in the order asked, at the configured commitment; batched (getMultipleAccounts,
   * up to 100 accounts per call), so a pass reads thousands of addresses in tens of calls.
   */
  balancesOf(tokenAccounts: string[]): Promise<Array<string | null>>;
  /** The owner's token accounts (SPL Token and Token-2022) of every mint but `mint`: where wrong-mint transfers land. */
  otherTokenAccountsOf(owner: string, mint: string): Promise<DepositAccount[]>;
  /**
   * The signatures that touched `account` after `after` (exclusive; null: from the first), oldest
   * first, only those at the configured commitment.
   */
  signaturesAfter(account: string, after: string | null): Promise<AccountSignature[]>;
  /**
   * What `account` gained of `mint` in the transaction, decimal text in token units ("0" when it
   * gained nothing, e.g. a transaction that only created it, or moved tokens out), and its balance
   * after it in base units (as `balancesOf` reads it; "0" for a failed one, whose balance is not
   * reported); undefined when the node does not answer the transaction at the configured commitment yet.
   */
  receivedIn(signature: string, account: string, mint: string): Promise<Received | undefined>;
}
