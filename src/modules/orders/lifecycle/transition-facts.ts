/**
 * What a call site tells `applyTransition` (transitions.ts): only the facts that vary per call.
 * What the transition does with them is its edge's declaration in process.ts.
 */
import type { Updateable } from 'kysely';
import type { OrderTransactionStatus, OrderTransactionType, OrdersTable } from '../tables.ts';
import type { OrderClaim } from '../repo.ts';

/** A movement's own figures; its type and status are the edge's (process.ts). */
export interface MovementFigures {
  amount: string;
  currency: string;
  chain?: string | null;
  txHash?: string | null;
  /** CHAIN_TRANSFER: the signed transaction, stored before it is ever sent. */
  prepared?: { wire: string; lastValidBlockHeight: string };
  /** CHAIN_TRANSFER in a batch (transfer-batch.ts): the batch's row and this transfer's instruction in its transaction. */
  batch?: { id: string; instructionIndex: number };
}

/** A PIX or on-chain movement, kept as the order's transaction record (spec: Order transaction). */
export interface Movement extends MovementFigures {
  type: OrderTransactionType;
  status: OrderTransactionStatus;
}

export interface TransitionFacts {
  /** Columns the transition sets beside the status (a tx hash, a failure reason, a refund id...). */
  changes?: Updateable<OrdersTable>;
  /** The figures of the movements the edge records, in the order it declares them. */
  moved?: MovementFigures | readonly MovementFigures[];
  /** The `failureReason` of an order.failed or order.refunding event (the column may say more). */
  reason?: string;
  /** What the chain charged the treasury for the order's transfer (lamports), posted in SOL. */
  chainCosts?: { feeLamports: bigint; rentLamports: bigint };
  /**
   * The claim a worker's step runs under (steps.ts): the transition applies only while the order
   * is still under it, so a worker that lost the order to another (taken for dead, its lease
   * lapsed) writes nothing, however late it comes back.
   */
  underClaim?: OrderClaim;
  /**
   * Set by a worker that runs the next step itself (due at once): it keeps its claim (the holder
   * of `underClaim`) until then, and no wake-up is published for the step.
   */
  claimedUntil?: Date;
  /**
   * Applies only while the order's stored transaction is still this one: a worker giving a
   * transfer up must not act on one that another worker (its claim lapsed) has replaced since.
   */
  whileTxHash?: string;
}
