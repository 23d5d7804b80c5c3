/**
 * The one way an order's status changes after creation. Notifications (notifications.ts) and
 * the worker's steps (steps.ts) both call `applyTransition`, so every change gets the same
 * guard, bookkeeping, ledger entry and event, in the caller's transaction.
 */
import type { Updateable } from 'kysely';
import { signalAfterCommit } from '../../platform/commit-signals.ts';
import type { Trx } from '../../db/database.ts';
import { recordEvent } from '../../platform/outbox.ts';
import type { OrderRow, OrderTransactionStatus, OrderTransactionType, OrdersTable, StoredOrderStatus } from './tables.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LedgerService } from '../ledger/service.ts';
import { ordersRepo as repo } from './repo.ts';
import { BEFORE_MONEY, assertTransition } from './state-machine.ts';

/** A PIX or on-chain movement, kept as the order's transaction record (spec: Order transaction). */
export interface Movement {
  type: OrderTransactionType;
  status: OrderTransactionStatus;
  amount: string;
  currency: string;
  chain?: string | null;
  txHash?: string | null;
  /** CHAIN_TRANSFER: the signed transaction, stored before it is ever sent. */
  prepared?: { wire: string; lastValidBlockHeight: string };
}

/** The ledger's kinds of order movement, named through its service (orders use the ledger only through it). */
type LedgerMovement = Parameters<LedgerService['postOrderMovement']>[2];

export interface Effects {
  changes?: Updateable<OrdersTable>;
  /** One movement, or several that the transition records together (a deposit and its excess). */
  movement?: Movement | readonly Movement[];
  /** The event and its extra fields; `status` is the one the spec's table gives the event. */
  event?: { name: string; status: StoredOrderStatus; fields: Record<string, unknown> };
  /** When the worker should look at the order next (null: wait for a notification). */
  nextStepAt?: Date | null;
  /**
   * Set by a worker that runs the next step itself (due at once): it keeps its claim until then,
   * and no wake-up is published for the step.
   */
  claimedUntil?: Date;
  /** The ledger entry this transition posts (`received`: the amount that actually moved). */
  ledger?: { movement: LedgerMovement; received?: string };
  /** What the chain charged the treasury for the order's transfer (lamports), posted in SOL. */
  chainCosts?: { feeLamports: bigint; rentLamports: bigint };
  /**
   * Applies only while the order's stored transaction is still this one: a worker giving a
   * transfer up must not act on one that another worker (its claim lapsed) has replaced since.
   */
  whileTxHash?: string;
}

/**
 * The PAYIN steps towards its token transfer: none applies while a MED claim holds the order
 * (disputes module), so a worker that read the row before the hold cannot send the tokens.
 */
const TOWARDS_TRANSFER: readonly StoredOrderStatus[] = ['SWAPPING', 'TRANSFERRING'];

/** Whether the transition leaves the order's next step due at once (not later, not waiting for a notification). */
export const leavesStepDue = (effects: Effects, now: Date) => (effects.nextStepAt?.getTime() ?? Infinity) <= now.getTime();

/** A PAYIN that cannot complete after its PIX arrived is refunded (spec: order.refunding). */
export const refundingEvent = (reason: string) => ({ name: 'order.refunding', status: 'REFUNDING' as const, fields: { failureReason: reason } });

/** Published after a transition that left a step due at once: workers run it without waiting for their sweep. */
export const ORDER_STEPS_CHANNEL = 'order_steps';

export interface TransitionContext {
  clock: Clock;
  /** postChainCosts: only where transitions carry chain costs (the worker's steps). */
  ledger: Pick<LedgerService, 'postOrderMovement'> & Partial<Pick<LedgerService, 'postChainCosts'>>;
  /** Told of every change, so caches of the merchant's orders (the GET /orders pages) drop what they hold. */
  onOrderChanged?: ((merchantId: string) => void) | undefined;
}

/**
 * Moves `order` from its current status to `to`, guarded: if another transaction moved it first,
 * nothing is written and undefined is returned. In the same transaction it records the movement,
 * gives the receiver's daily limit back when the order ends before money arrived, posts the
 * ledger entry and writes the event with exactly the spec's fields.
 */
export async function applyTransition(trx: Trx, ctx: TransitionContext, order: OrderRow, to: StoredOrderStatus, effects: Effects = {}) {
  assertTransition(order.type, order.status, to);
  const now = ctx.clock.now();
  const releasesLimit = BEFORE_MONEY.includes(order.status) && (to === 'EXPIRED' || to === 'FAILED') && !order.limit_released;
  const updated = await repo.transition(
    trx,
    order.id,
    order.status,
    {
      ...effects.changes,
      status: to,
      ...(to === 'COMPLETED' ? { completed_at: now } : {}),
      ...(releasesLimit ? { limit_released: true } : {}),
      next_step_at: effects.nextStepAt === undefined ? null : effects.nextStepAt,
      step_attempts: 0,
      claimed_until: effects.claimedUntil ?? null,
    },
    now,
    { txHash: effects.whileTxHash, notHeld: TOWARDS_TRANSFER.includes(to) },
  );
  if (!updated) return undefined;
  if (leavesStepDue(effects, now) && !effects.claimedUntil) signalAfterCommit(trx, ORDER_STEPS_CHANNEL);
  ctx.onOrderChanged?.(order.merchant_id);
  if (releasesLimit) {
    await repo.releaseDailyUsage(trx, { receiverId: order.receiver_id, day: order.limit_day, amountBrl: order.amount_brl });
  }
  for (const movement of [effects.movement ?? []].flat()) {
    await repo.recordTransaction(trx, { orderId: order.id, ...movement, chain: movement.chain ?? null, txHash: movement.txHash ?? null }, now);
  }
  if (effects.ledger) {
    await ctx.ledger.postOrderMovement(trx, updated, effects.ledger.movement, now, effects.ledger.received);
  }
  if (effects.chainCosts) {
    if (!ctx.ledger.postChainCosts) throw new Error('a transition with chain costs needs the ledger\'s postChainCosts');
    await ctx.ledger.postChainCosts(trx, updated, effects.chainCosts, now);
  }
  if (effects.event) {
    await recordEvent(trx, {
      merchantId: order.merchant_id,
      event: effects.event.name,
      payload: {
        orderId: order.id,
        externalId: order.external_id,
        type: order.type,
        status: effects.event.status,
        timestamp: now.toISOString(),
        ...effects.event.fields,
      },
    });
  }
  return updated;
}
