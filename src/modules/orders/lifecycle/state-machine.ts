/**
 * The order lifecycles (DESIGN.md §5). Every status change goes through `assertTransition`,
 * and every write is guarded by the expected current status, so a retried or concurrent step
 * can never apply twice.
 *
 * PENDING, a status of the spec, is never stored (see StoredOrderStatus): the provider call
 * comes before the insert, so an order starts in AWAITING_PAYMENT or AWAITING_DEPOSIT. It has
 * no row in the tables below, so no transition leads to it or leaves it.
 *
 * PAYIN:  AWAITING_PAYMENT → PAYMENT_RECEIVED → SWAPPING → TRANSFERRING → COMPLETED;
 *         unpaid past expiresAt → EXPIRED; any failure after the PIX arrived → REFUNDING →
 *         REFUNDED (FAILED only if the refund itself fails; then operators may refund it again,
 *         FAILED → REFUNDING, approved by two of them: operator-actions.ts).
 *         A PIX that arrives for an expired order, or for the wrong amount, is refunded.
 * PAYOUT: AWAITING_DEPOSIT → DEPOSIT_RECEIVED → PIX_SENDING → PIX_SENT_UNCONFIRMED →
 *         COMPLETED; no deposit by expiresAt → EXPIRED; a deposit worth less than the minimum
 *         order, or a refused PIX → FAILED (a refused PIX may be sent again, FAILED → PIX_SENDING,
 *         approved by two operators: operator-actions.ts).
 *
 * The edges are the order process's declarations (process.ts): one table says both which
 * transitions exist and what each does; test/modules/orders/state-machine.test.ts holds it to
 * the lifecycles above.
 */
import type { OrderStatus, StoredOrderStatus } from '../tables.ts';
import type { OrderType } from '../../../lib/order-types.ts';
import { processEdge } from './process.ts';

/** Takes any status of the spec: PENDING is accepted and always refused, as it is never stored. */
export function canTransition(type: OrderType, from: OrderStatus, to: OrderStatus): boolean {
  if (from === 'PENDING' || to === 'PENDING') return false;
  return processEdge(type, from, to) !== undefined;
}

export function assertTransition(type: OrderType, from: OrderStatus, to: OrderStatus): void {
  if (!canTransition(type, from, to)) throw new Error(`illegal ${type} transition ${from} → ${to}`);
}

/** Statuses in which money has not arrived: leaving them by expiry or failure gives the limit back. */
export const BEFORE_MONEY: readonly StoredOrderStatus[] = ['AWAITING_PAYMENT', 'AWAITING_DEPOSIT'];
