/** Order statuses and types as data (no React: the routes file's validateSearch reads them on the first load). */
import type { components } from '../../api/schema.ts';

export type Order = components['schemas']['Order'];
export type OrderStatus = Order['status'];
export type OrderType = Order['type'];

/** Every status, in the order an order goes through them (the filter's choices). */
export const ORDER_STATUSES: readonly OrderStatus[] = [
  'AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING',
  'AWAITING_DEPOSIT', 'DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED',
  'COMPLETED', 'EXPIRED', 'REFUNDING', 'REFUNDED', 'FAILED', 'PENDING',
];
export const ORDER_TYPES: readonly OrderType[] = ['PAYIN', 'PAYOUT'];

/**
 * Statuses after which the order does not move by itself: the order page stops refreshing there.
 * EXPIRED is final unless a late PIX arrives (then REFUNDING), which a sandbox action or a reload shows.
 */
export const FINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['COMPLETED', 'FAILED', 'EXPIRED', 'REFUNDED']);
