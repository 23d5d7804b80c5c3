/**
 * What an operator may do to an order that is stuck (back office, docs/architecture/back-office.md):
 * one rule, read by the stuck-orders list (to offer the actions) and by the actions themselves
 * (to refuse the others).
 *
 * - RETRY_STEP: run the worker's next step now (it is backing off, or its claim was lost). Moves
 *   no money by itself: the step is the one the state machine would run anyway.
 * - REFUND: a PAYIN whose refund failed holds the customer's BRL in transit; a new refund is
 *   requested (FAILED → REFUNDING). Moves money, so it goes through four-eyes approval.
 * - MARK_FAILED: end an order the provider will never settle, with a reason; only where the state
 *   machine allows FAILED (a refund or a payout PIX that never ends). Posts nothing: the funds stay
 *   in transit, visible to the next operator, as for any failure after money arrived.
 */
import { canTransition } from './state-machine.ts';
import type { OrderRow, StoredOrderStatus } from './tables.ts';

export const OPERATOR_ORDER_ACTIONS = ['RETRY_STEP', 'REFUND', 'MARK_FAILED'] as const;
export type OperatorOrderAction = (typeof OPERATOR_ORDER_ACTIONS)[number];

/** Money has arrived and the order has not ended: a worker step, or the PSP, still has to move it. */
export const IN_TRANSIT_STATUSES: readonly StoredOrderStatus[] = ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING', 'REFUNDING', 'DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED'];

/** Statuses in which the worker has a step to run (PIX_SENT_UNCONFIRMED waits for the PSP, not the worker). */
const WORKER_STEP_STATUSES: readonly StoredOrderStatus[] = ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING', 'REFUNDING', 'DEPOSIT_RECEIVED', 'PIX_SENDING'];

type ActionFacts = Pick<OrderRow, 'type' | 'status' | 'pix_end_to_end_id'>;

/** A PAYIN reaches FAILED only when its refund failed: the PIX it received is still held. */
export const failedWithMoneyHeld = (order: ActionFacts): boolean => order.status === 'FAILED' && order.type === 'PAYIN' && order.pix_end_to_end_id !== null;

export function allowedOperatorActions(order: ActionFacts): OperatorOrderAction[] {
  const actions: OperatorOrderAction[] = [];
  if (WORKER_STEP_STATUSES.includes(order.status)) actions.push('RETRY_STEP');
  if (failedWithMoneyHeld(order)) actions.push('REFUND');
  if (IN_TRANSIT_STATUSES.includes(order.status) && canTransition(order.type, order.status, 'FAILED')) actions.push('MARK_FAILED');
  return actions;
}
