/**
 * The orders' chain port, kept narrow: a deposit address per payout order, and a token transfer
 * from the platform's treasury in two phases, so that an order transfers exactly once through
 * crashes (docs/architecture/chain.md, "Exactly one transfer per order"):
 *
 * 1. `prepareTransfer` builds and signs a transaction and sends nothing. The caller stores what it
 *    answers (signature, signed bytes, last valid block height) and commits it.
 * 2. `sendTransfer` sends those stored bytes, as often as needed: the same bytes are the same
 *    transaction, which the chain executes at most once.
 * 3. `getTransferStatus` says whether it landed; EXPIRED only when it provably never can, the one
 *    case where the caller may prepare another.
 *
 * Deposits come back as `ChainDeposit`s handed to `orders.handleChainDeposit` (by a watcher job or
 * the sandbox drivers).
 */

/** Decimal text in token units, e.g. "18.518518" (USDC has 6 decimals). */
export type TokenAmount = string;

export interface ChainDeposit {
  depositAddress: string;
  token: string;
  amount: TokenAmount;
  /** Transaction signature, base58. */
  txHash: string;
  /**
   * When the chain confirmed it (the block's time), judged against the order's expiresAt; null
   * when the node does not say, and the detection time stands in (later, never earlier).
   */
  blockTime: Date | null;
}

export interface TransferIntent {
  /** Who the transfer is for (orders use their id): the sandbox keys its failure injections by it. */
  reference: string;
  token: string;
  amount: TokenAmount;
  /** The receiver's wallet (owner address); the adapter finds or creates its token account. */
  destination: string;
}

/** A signed transfer not necessarily sent: everything needed to send it again, or to ask about it. */
export interface PreparedTransfer {
  /** The transaction's first signature, base58: its id on chain. */
  txHash: string;
  /** The signed transaction, base64 wire bytes (the sandbox's is an opaque encoding of the intent). */
  wire: string;
  /** Decimal text: past this block height the transaction can no longer be accepted. */
  lastValidBlockHeight: string;
}

/**
 * PENDING: not (yet) at the configured commitment, and may still land. CONFIRMED: landed without
 * error at the configured commitment. FAILED: landed with an error (its fee was paid). EXPIRED:
 * the block height is past lastValidBlockHeight and the node's full history does not know the
 * signature, so it can never land.
 */
export type TransferStatus = 'PENDING' | 'CONFIRMED' | 'FAILED' | 'EXPIRED';

/** What the treasury paid for a landed transaction, in lamports (decimal text). */
export interface TransferCosts {
  /** The transaction's fee (signatures and priority). */
  feeLamports: string;
  /** Rent of accounts it created (the receiver's token account), beyond the fee. */
  rentLamports: string;
}

export interface TransferState {
  status: TransferStatus;
  /** PENDING only: the chain has the transaction, below the configured commitment. Sending it again would change nothing. */
  landed?: boolean;
  error?: string;
  /** Given with CONFIRMED and FAILED (a failed transaction still paid its fee). */
  costs?: TransferCosts;
}

/**
 * `prepareTransfer` refused the transfer itself, before signing: no retry can cure it (no mint
 * configured for the token, a mint that does not exist or is not a token mint, an amount finer
 * than the mint's decimals, a destination that is not an address). Nothing was signed or sent, so
 * the caller may give the order up. A node that cannot be reached is ChainUnavailableError
 * (transactions-port.ts) instead: transient, retried.
 */
export class ChainTransferRefusedError extends Error {
  /** In a batch (prepareTransferBatch): the reference of the one intent refused; the others may go without it. */
  readonly reference: string | undefined;
  constructor(message: string, reference?: string) {
    super(message);
    this.name = 'ChainTransferRefusedError';
    this.reference = reference;
  }
}

/** Wake-ups when a signature reaches the commitment, over the node's websocket (solana-subscriptions.ts); a hint only, never a status. */
export type { SignatureWatch } from './solana-subscriptions.ts';

/**
 * One signed transaction carrying the transfers of the first `instructionIndexes.length` intents
 * given (as many as fit in one transaction, in the order given), decision 0053.
 */
export interface PreparedBatch extends PreparedTransfer {
  /** Per intent included: the index of its transfer instruction in the transaction. */
  instructionIndexes: number[];
  /** References of the intents whose receiver's token account the transaction creates (its rent is theirs). */
  accountCreators: string[];
}

export interface ChainAdapter {
  readonly chain: string;

  /**
   * A fresh address that receives the deposit of one payout order. Repeatable per `orderId`: a second call with it answers the same address. `orderId` is the
   * order's id, or, for an order created with an Idempotency-Key, a reference derived from
   * merchant and key (the order's id is not known to a retry).
   */
  createDepositAddress(input: { orderId: string; token: string }): Promise<{ address: string }>;

  /**
   * Builds and signs a transfer from the platform's treasury, from treasury wallet `wallet` (1
   * when absent; decision 0057: its key signs and pays the fee); sends nothing. Throws
   * ChainTransferRefusedError when no retry can help. The sandbox chain has one treasury.
   */
  prepareTransfer(input: TransferIntent, wallet?: number): Promise<PreparedTransfer>;

  /** Sends (or sends again) exactly these bytes; idempotent. */
  sendTransfer(prepared: PreparedTransfer): Promise<void>;

  getTransferStatus(prepared: PreparedTransfer): Promise<TransferState>;

  /**
   * A transaction sent now lands in a slot still to come, never during the send (a real node):
   * asked at once, its status is always pending, so the steps do not ask before a later pass.
   * Unset (the sandbox chain, which settles on send): they ask right after the send.
   */
  readonly landsAfterSend?: boolean;

  /**
   * Several transfers of one token in one signed transaction, sending nothing (decision 0053); the
   * batch is then sent and asked about with sendTransfer and getTransferStatus like one transfer.
   * Adapters without it transfer one order per transaction. Throws ChainTransferRefusedError with
   * the refused intent's `reference` when one of them can never be transferred.
   */
  prepareTransferBatch?(intents: readonly TransferIntent[], wallet?: number): Promise<PreparedBatch>;
}
