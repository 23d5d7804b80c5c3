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
 */
import type { OrderStatus, StoredOrderStatus } from './tables.ts';
import type { OrderType } from '../../lib/order-types.ts';

/** Keyed by every stored status, so a status added to ORDER_STATUSES must be placed here to compile. */
type Transitions = Readonly<Record<StoredOrderStatus, readonly StoredOrderStatus[]>>;

/** Statuses a type never reaches have no way out either. */
const NEVER_REACHED = [] as const;

const TRANSITIONS: Record<OrderType, Transitions> = {
  PAYIN: {
    AWAITING_PAYMENT: ['PAYMENT_RECEIVED', 'REFUNDING', 'EXPIRED'],
    PAYMENT_RECEIVED: ['SWAPPING', 'REFUNDING'],
    SWAPPING: ['TRANSFERRING', 'REFUNDING'],
    TRANSFERRING: ['COMPLETED', 'REFUNDING'],
    // A PIX that arrives after expiry is money to give back.
    EXPIRED: ['REFUNDING'],
    REFUNDING: ['REFUNDED', 'FAILED'],
    COMPLETED: [],
    REFUNDED: [],
    // Only by operators, four-eyes (operator-actions.ts): the worker never leaves FAILED.
    FAILED: ['REFUNDING'],
    AWAITING_DEPOSIT: NEVER_REACHED,
    DEPOSIT_RECEIVED: NEVER_REACHED,
    PIX_SENDING: NEVER_REACHED,
    PIX_SENT_UNCONFIRMED: NEVER_REACHED,
  },
  PAYOUT: {
    AWAITING_DEPOSIT: ['DEPOSIT_RECEIVED', 'EXPIRED', 'FAILED'],
    DEPOSIT_RECEIVED: ['PIX_SENDING', 'FAILED'],
    PIX_SENDING: ['PIX_SENT_UNCONFIRMED', 'FAILED'],
    PIX_SENT_UNCONFIRMED: ['COMPLETED', 'FAILED'],
    COMPLETED: [],
    EXPIRED: [],
    // Only by operators, four-eyes (operator-actions.ts): the worker never leaves FAILED.
    FAILED: ['PIX_SENDING'],
    AWAITING_PAYMENT: NEVER_REACHED,
    PAYMENT_RECEIVED: NEVER_REACHED,
    SWAPPING: NEVER_REACHED,
    TRANSFERRING: NEVER_REACHED,
    REFUNDING: NEVER_REACHED,
    REFUNDED: NEVER_REACHED,
  },
};

/** Takes any status of the spec: PENDING is accepted and always refused, as it is never stored. */
export function canTransition(type: OrderType, from: OrderStatus, to: OrderStatus): boolean {
  if (from === 'PENDING' || to === 'PENDING') return false;
  return TRANSITIONS[type][from].includes(to);
}

export function assertTransition(type: OrderType, from: OrderStatus, to: OrderStatus): void {
  if (!canTransition(type, from, to)) throw new Error(`illegal ${type} transition ${from} → ${to}`);
}

/** Statuses in which money has not arrived: leaving them by expiry or failure gives the limit back. */
export const BEFORE_MONEY: readonly StoredOrderStatus[] = ['AWAITING_PAYMENT', 'AWAITING_DEPOSIT'];
