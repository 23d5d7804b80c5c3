/**
 * The one guarded transition every order change goes through: the row (only from the status it
 * was read in), its movement record, the limit release, the ledger entry and the event, all in
 * the caller's transaction.
 */
import type { Updateable } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';
import { recordEvent } from '../../db/outbox.ts';
import type { OrderRow, StoredOrderStatus, OrderTransactionType, OrdersTable } from './tables.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal, toJsonNumber } from '../../lib/money.ts';
import type { OrderMovement } from '../ledger/postings.ts';
import type { LedgerService } from '../ledger/service.ts';
import { ordersRepo as repo } from './repo.ts';
import { BEFORE_MONEY, assertTransition } from './state-machine.ts';

export interface Movement {
  type: OrderTransactionType;
  status: 'PENDING' | 'CONFIRMED' | 'FAILED';
  amount: string;
  currency: string;
  chain?: string | null;
  txHash?: string | null;
}

export interface Effects {
  changes?: Updateable<OrdersTable>;
  movement?: Movement;
  /** The event and its extra fields; `status` is the one the spec's table gives the event. */
  event?: { name: string; status: StoredOrderStatus; fields: Record<string, unknown> };
  /** When the worker should look at the order next (null: wait for a notification). */
  nextStepAt?: Date | null;
  /** The ledger entry this transition posts (`received`: the amount that actually moved). */
  ledger?: { movement: OrderMovement; received?: string };
}

export interface TransitionContext {
  clock: Clock;
  ledger?: Pick<LedgerService, 'postOrderMovement'>;
}

/**
 * Moves `order` from its current status to `to`, guarded: if another transaction moved it first,
 * nothing is written and undefined is returned. Must run inside the caller's transaction.
 */
export async function applyTransition(trx: Trx, ctx: TransitionContext, order: OrderRow, to: StoredOrderStatus, effects: Effects = {}) {
  assertTransition(order.type, order.status, to);
  const now = ctx.clock.now();
  const releasesLimit = BEFORE_MONEY.includes(order.status) && (to === 'EXPIRED' || to === 'FAILED') && !order.limit_released;
  const updated = await repo.transition(trx, order.id, order.status, {
    ...effects.changes,
    status: to,
    ...(to === 'COMPLETED' ? { completed_at: now } : {}),
    ...(releasesLimit ? { limit_released: true } : {}),
    next_step_at: effects.nextStepAt === undefined ? null : effects.nextStepAt,
    step_attempts: 0,
    claimed_until: null,
  }, now);
  if (!updated) return undefined;
  if (releasesLimit) {
    await repo.releaseDailyUsage(trx, { receiverId: order.receiver_id, day: order.limit_day, amountBrl: order.amount_brl });
  }
  if (effects.movement) {
    await repo.recordTransaction(trx, {
      orderId: order.id,
      ...effects.movement,
      chain: effects.movement.chain ?? null,
      txHash: effects.movement.txHash ?? null,
    }, now);
  }
  if (effects.ledger) {
    if (!ctx.ledger) throw new Error('a transition that posts to the ledger needs the ledger');
    await ctx.ledger.postOrderMovement(trx, updated, effects.ledger.movement, now, effects.ledger.received);
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

export const brl = (row: OrderRow) => toJsonNumber(row.amount_brl);

export const refundingEvent = (reason: string) => ({ name: 'order.refunding', status: 'REFUNDING' as const, fields: { failureReason: reason } });

/** What goes back to the customer: the PIX actually received, which may differ from the order's amount. */
export async function receivedAmount(db: Db, order: OrderRow): Promise<string> {
  const [received] = (await repo.transactionsOf(db, [order.id])).filter((tx) => tx.type === 'PIX_IN');
  return decimal(received?.amount ?? order.amount_brl).toFixed(2);
}
