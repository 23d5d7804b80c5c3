/**
 * The operators' actions on stuck orders (docs/architecture/back-office.md), each allowed by the
 * one rule of operator-actions.ts, guarded by the order's status under its row lock, and audited
 * with before and after in the same transaction. RETRY_STEP and MARK_FAILED are one operator's;
 * REFUND and RETRY_PAYOUT move money, so only an approved proposal runs them (approvals/actions.ts),
 * inside the approval's transaction.
 */
import type { Db, Trx } from '../../../db/database.ts';
import { AppError, notFound } from '../../../errors.ts';
import type { Clock } from '../../../lib/clock.ts';
import { inTransaction, signalAfterCommit } from '../../../platform/commit-signals.ts';
import { type AuditActor, recordAudit } from '../../../platform/audit/record.ts';
import { type AdminOrder, toAdminOrder } from './admin-reads.ts';
import { adminOrdersRepo } from './admin-search-repo.ts';
import { allowedOperatorActions, type OperatorOrderAction } from '../lifecycle/operator-actions.ts';
import { ordersRepo as repo } from '../repo.ts';
import type { OrderRow } from '../tables.ts';
import { ORDER_STEPS_CHANNEL, applyTransition, type TransitionContext } from '../lifecycle/transitions.ts';

const snapshot = (order: OrderRow) => ({
  status: order.status,
  failureReason: order.failure_reason,
  ...(order.type === 'PAYIN' ? { refundId: order.refund_id } : { payoutAttempt: order.payout_attempt }),
  stepAttempts: order.step_attempts,
  nextStepAt: order.next_step_at?.toISOString() ?? null,
});

/** Operators retry one PAYOUT's PIX at most this many times (each a new PSP idempotency key). */
const MAX_PAYOUT_RETRIES = 9;

/**
 * A refund id for the operators' n-th new refund: the worker's own (`R` + the order id's 32 hex)
 * with `M<n>`, still within API Pix's 35 characters, so the PSP sees a new devolução each time.
 */
export function operatorRefundId(order: Pick<OrderRow, 'id' | 'refund_id'>): string {
  const previous = Number(/M(\d+)$/.exec(order.refund_id ?? '')?.[1] ?? 0);
  if (previous >= 9) throw new AppError('CONFLICT', 'This order has been refunded by operators 9 times already: ask the PSP why its refunds fail');
  return `R${order.id.replaceAll('-', '')}M${previous + 1}`;
}

export function createOrderOperatorActions(deps: { db: Db; clock: Clock; transitions: TransitionContext }) {
  const { db, clock } = deps;

  async function lockFor(trx: Trx, id: string, action: OperatorOrderAction): Promise<OrderRow> {
    const order = await repo.lockBy(trx, 'id', id);
    if (!order) throw notFound('Order');
    const allowed = allowedOperatorActions(order);
    if (!allowed.includes(action)) {
      throw new AppError('CONFLICT', `${action} is not allowed for a ${order.type} in ${order.status}`, { reason: 'ACTION_NOT_ALLOWED', allowedActions: allowed });
    }
    return order;
  }

  async function answer(trx: Trx, id: string): Promise<AdminOrder> {
    return toAdminOrder((await adminOrdersRepo.find(trx, id))!);
  }

  return {
    /** 404 unknown, 409 when the action does not apply now: a proposal is checked when it is made. */
    async check(id: string, action: OperatorOrderAction): Promise<{ merchantId: string; before: Record<string, unknown> }> {
      const order = await db.transaction().execute((trx) => lockFor(trx, id, action));
      return { merchantId: order.merchant_id, before: snapshot(order) };
    },

    /** The worker's step is due now (a backing-off order waits no longer); a live claim is left to its worker. */
    retryStep(id: string, by: AuditActor): Promise<AdminOrder> {
      return inTransaction(db, async (trx) => {
        const order = await lockFor(trx, id, 'RETRY_STEP');
        const now = clock.now();
        await trx.updateTable('orders').set({ next_step_at: now, step_attempts: 0, updated_at: now }).where('id', '=', id).where('status', '=', order.status).execute();
        signalAfterCommit(trx, ORDER_STEPS_CHANNEL);
        await recordAudit(trx, by, { action: 'order.retry_step', targetType: 'order', targetId: id, details: { merchantId: order.merchant_id, before: snapshot(order), after: { status: order.status, nextStepAt: now.toISOString(), stepAttempts: 0 } } });
        return answer(trx, id);
      });
    },

    /** Ends an order no provider will settle; posts nothing (the funds stay in transit, as for any failure after money arrived). */
    markFailed(id: string, reason: string, by: AuditActor): Promise<AdminOrder> {
      return inTransaction(db, async (trx) => {
        const order = await lockFor(trx, id, 'MARK_FAILED');
        const failureReason = `Marked failed by an operator: ${reason}`;
        const updated = await applyTransition(trx, deps.transitions, order, 'FAILED', { changes: { failure_reason: failureReason }, reason: failureReason });
        await recordAudit(trx, by, { action: 'order.mark_failed', targetType: 'order', targetId: id, details: { merchantId: order.merchant_id, reason, before: snapshot(order), after: snapshot(updated!) } });
        return answer(trx, id);
      });
    },

    /**
     * FAILED → REFUNDING with a new refund id, in the approval's transaction: the worker requests
     * the refund at once, and its outcome (refund_settled) ends the order REFUNDED, posting the
     * refund and sending order.refunded, as for any refund.
     */
    async refund(trx: Trx, id: string, reason: string, by: AuditActor & { approvalId?: string }): Promise<AdminOrder> {
      const order = await lockFor(trx, id, 'REFUND');
      const updated = await applyTransition(trx, deps.transitions, order, 'REFUNDING', {
        changes: { refund_id: operatorRefundId(order), failure_reason: `Refunded by operators: ${reason}` },
        reason,
      });
      await recordAudit(trx, by, { action: 'order.refund', targetType: 'order', targetId: id, details: { merchantId: order.merchant_id, reason, approvalId: by.approvalId, before: snapshot(order), after: snapshot(updated!) } });
      return answer(trx, id);
    },

    /**
     * FAILED → PIX_SENDING for a PAYOUT whose PIX was refused, in the approval's transaction: the
     * worker sends it again under the next idempotency key (payoutIdempotencyKey), and its outcome
     * ends the order COMPLETED (posting the payout) or FAILED again, as for any payout.
     */
    async retryPayout(trx: Trx, id: string, reason: string, by: AuditActor & { approvalId?: string }): Promise<AdminOrder> {
      const order = await lockFor(trx, id, 'RETRY_PAYOUT');
      if (order.payout_attempt >= MAX_PAYOUT_RETRIES) throw new AppError('CONFLICT', `This payout's PIX has been retried ${MAX_PAYOUT_RETRIES} times already: check the PIX key with the merchant`);
      const updated = await applyTransition(trx, deps.transitions, order, 'PIX_SENDING', {
        changes: { payout_attempt: order.payout_attempt + 1, payout_refused_at: null, provider_transaction_id: null, failure_reason: null },
      });
      await recordAudit(trx, by, { action: 'order.retry_payout', targetType: 'order', targetId: id, details: { merchantId: order.merchant_id, reason, approvalId: by.approvalId, before: snapshot(order), after: snapshot(updated!) } });
      return answer(trx, id);
    },
  };
}

export type OrderOperatorActions = ReturnType<typeof createOrderOperatorActions>;
