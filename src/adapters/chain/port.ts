/**
 * The chain port, kept narrow: a deposit address per payout order, a token transfer to a
 * wallet, and the confirmation status of a transaction. Deposits come back as
 * `ChainDeposit`s handed to `orders.handleChainDeposit` (by a watcher job or the sandbox drivers).
 */

/** Decimal text in token units, e.g. "18.518518" (USDC has 6 decimals). */
export type TokenAmount = string;

export interface ChainDeposit {
  depositAddress: string;
  token: string;
  amount: TokenAmount;
  /** Transaction signature, base58. */
  txHash: string;
}

export type TransferStatus = 'PENDING' | 'CONFIRMED' | 'FAILED';

export interface ChainAdapter {
  readonly chain: string;

  /**
   * A fresh address that receives the deposit of one payout order. Repeatable per `orderId`: a second call with it answers the same address. `orderId` is the
   * order's id, or, for an order created with an Idempotency-Key, a reference derived from
   * merchant and key (the order's id is not known to a retry).
   */
  createDepositAddress(input: { orderId: string; token: string }): Promise<{ address: string }>;

  /** Sends tokens from the platform's treasury; idempotent per `idempotencyKey`. */
  transferToken(input: { idempotencyKey: string; token: string; amount: TokenAmount; destination: string }): Promise<{ txHash: string }>;

  getTransferStatus(txHash: string): Promise<{ status: TransferStatus; error?: string }>;
}
