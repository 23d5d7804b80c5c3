/**
 * The order lifecycles (DESIGN.md §5). Every status change goes through `assertTransition`,
 * and every write is guarded by the expected current status, so a retried or concurrent step
 * can never apply twice.
 *
 * Orders are created directly in AWAITING_PAYMENT or AWAITING_DEPOSIT (the provider call comes
 * before the insert), so PENDING, a status of the spec, is never stored.
 *
 * PAYIN:  AWAITING_PAYMENT → PAYMENT_RECEIVED → SWAPPING → TRANSFERRING → COMPLETED;
 *         unpaid past expiresAt → EXPIRED; any failure after the PIX arrived → REFUNDING →
 *         REFUNDED (FAILED only if the refund itself fails).
 *         A PIX that arrives for an expired order, or for the wrong amount, is refunded.
 * PAYOUT: AWAITING_DEPOSIT → DEPOSIT_RECEIVED → PIX_SENDING → PIX_SENT_UNCONFIRMED →
 *         COMPLETED; no deposit by expiresAt → EXPIRED; a deposit worth less than the minimum
 *         order, or a refused PIX → FAILED.
 */
import type { OrderStatus } from './tables.ts';
import type { OrderType } from '../../lib/order-types.ts';

const TRANSITIONS: Record<OrderType, Partial<Record<OrderStatus, readonly OrderStatus[]>>> = {
  PAYIN: {
    AWAITING_PAYMENT: ['PAYMENT_RECEIVED', 'REFUNDING', 'EXPIRED'],
    PAYMENT_RECEIVED: ['SWAPPING', 'REFUNDING'],
    SWAPPING: ['TRANSFERRING', 'REFUNDING'],
    TRANSFERRING: ['COMPLETED', 'REFUNDING'],
    EXPIRED: ['REFUNDING'],
    REFUNDING: ['REFUNDED', 'FAILED'],
  },
  PAYOUT: {
    AWAITING_DEPOSIT: ['DEPOSIT_RECEIVED', 'EXPIRED', 'FAILED'],
    DEPOSIT_RECEIVED: ['PIX_SENDING', 'FAILED'],
    PIX_SENDING: ['PIX_SENT_UNCONFIRMED', 'FAILED'],
    PIX_SENT_UNCONFIRMED: ['COMPLETED', 'FAILED'],
  },
};

export function canTransition(type: OrderType, from: OrderStatus, to: OrderStatus): boolean {
  return TRANSITIONS[type][from]?.includes(to) ?? false;
}

export function assertTransition(type: OrderType, from: OrderStatus, to: OrderStatus): void {
  if (!canTransition(type, from, to)) throw new Error(`illegal ${type} transition ${from} → ${to}`);
}

/** Statuses in which money has not arrived: leaving them by expiry or failure gives the limit back. */
export const BEFORE_MONEY: readonly OrderStatus[] = ['AWAITING_PAYMENT', 'AWAITING_DEPOSIT'];
