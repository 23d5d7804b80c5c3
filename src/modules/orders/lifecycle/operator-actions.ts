/**
 * What an operator may do to an order that is stuck (back office, docs/architecture/back-office.md):
 * one rule, read by the stuck-orders list (to offer the actions) and by the actions themselves
 * (to refuse the others).
 *
 * - RETRY_STEP: run the worker's next step now (it is backing off, or its claim was lost). Moves
 *   no money by itself: the step is the one the state machine would run anyway.
 * - REFUND: a PAYIN whose refund failed holds the customer's BRL in transit; a new refund is
 *   requested (FAILED → REFUNDING). Moves money, so it goes through four-eyes approval.
 * - RETRY_PAYOUT: a PAYOUT whose PIX the PSP or the receiving bank refused holds the merchant's
 *   tokens; its PIX is sent again under a new idempotency key (FAILED → PIX_SENDING). Moves money,
 *   so four-eyes too.
 * - MARK_FAILED: end an order the provider will never settle, with a reason; only where the state
 *   machine allows FAILED (a refund or a payout PIX that never ends). Posts nothing: the funds stay
 *   in transit, visible to the next operator, as for any failure after money arrived.
 */
import { canTransition } from './state-machine.ts';
import type { OrderRow, StoredOrderStatus } from '../tables.ts';

export const OPERATOR_ORDER_ACTIONS = ['RETRY_STEP', 'REFUND', 'RETRY_PAYOUT', 'MARK_FAILED'] as const;
export type OperatorOrderAction = (typeof OPERATOR_ORDER_ACTIONS)[number];

/** Money has arrived and the order has not ended: a worker step, or the PSP, still has to move it. */
export const IN_TRANSIT_STATUSES: readonly StoredOrderStatus[] = ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING', 'REFUNDING', 'DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED'];

/** Statuses in which the worker has a step to run (PIX_SENT_UNCONFIRMED waits for the PSP, not the worker). */
const WORKER_STEP_STATUSES: readonly StoredOrderStatus[] = ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING', 'REFUNDING', 'DEPOSIT_RECEIVED', 'PIX_SENDING'];

type ActionFacts = Pick<OrderRow, 'type' | 'status' | 'pix_end_to_end_id' | 'payout_refused_at'>;

/** A PAYIN reaches FAILED only when its refund failed: the PIX it received is still held. */
const refundFailed = (order: ActionFacts) => order.status === 'FAILED' && order.type === 'PAYIN' && order.pix_end_to_end_id !== null;
/** A PAYOUT whose PIX was refused after its deposit: the merchant's tokens are still held. */
const payoutRefused = (order: ActionFacts) => order.status === 'FAILED' && order.type === 'PAYOUT' && order.payout_refused_at !== null;

export const failedWithMoneyHeld = (order: ActionFacts): boolean => refundFailed(order) || payoutRefused(order);

export function allowedOperatorActions(order: ActionFacts): OperatorOrderAction[] {
  const actions: OperatorOrderAction[] = [];
  if (WORKER_STEP_STATUSES.includes(order.status)) actions.push('RETRY_STEP');
  if (refundFailed(order)) actions.push('REFUND');
  if (payoutRefused(order)) actions.push('RETRY_PAYOUT');
  if (IN_TRANSIT_STATUSES.includes(order.status) && canTransition(order.type, order.status, 'FAILED')) actions.push('MARK_FAILED');
  return actions;
}

/**
 * The PSP idempotency key of a PAYOUT's PIX: the order id, and for the operators' n-th retry the id
 * with `R<n>` (API Pix's idEnvio takes it without dashes: 34 of its 35 characters), so the PSP sends
 * a new PIX instead of answering the refused one again.
 */
export const payoutIdempotencyKey = (order: Pick<OrderRow, 'id' | 'payout_attempt'>): string => (order.payout_attempt === 0 ? order.id : `${order.id}R${order.payout_attempt}`);
