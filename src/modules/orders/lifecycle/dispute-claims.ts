/**
 * What a MED claim (the disputes module) does to the PAYIN whose PIX it names, in the claim's
 * transaction: the order is locked before the dispute row, as refundSettled does (notifications.ts).
 * - hold: a PAYIN whose tokens have not left (PAYMENT_RECEIVED, SWAPPING) stops before its
 *   transfer: `dispute_hold`, no step scheduled, and the steps towards the transfer are guarded by
 *   it (transitions.ts), so a worker that read the row before cannot send the tokens;
 * - release: the claim ended without a return: the order goes on where it stopped;
 * - return: the claim was accepted while the order still holds the PIX (held, or FAILED after its
 *   refund failed): REFUNDING with natureza MED_FRAUDE, under the dispute's return id; the
 *   normal refund path does the rest (PSP, REFUNDED, the PAYIN_REFUNDED posting, order.refunded).
 */
import type { Trx } from '../../../db/database.ts';
import { afterCommit, signalAfterCommit } from '../../../platform/commit-signals.ts';
import { ordersRepo as repo } from '../repo.ts';
import type { OrderRow, StoredOrderStatus } from '../tables.ts';
import { ORDER_STEPS_CHANNEL, type TransitionContext, applyTransition } from './transitions.ts';

/** A PAYIN in these statuses has not signed its transfer: a claim can stop it. */
const HOLDABLE: readonly StoredOrderStatus[] = ['PAYMENT_RECEIVED', 'SWAPPING'];
/** A PAYIN in these still holds the PIX's money: an accepted claim returns it through the order. */
const RETURNABLE: readonly StoredOrderStatus[] = ['PAYMENT_RECEIVED', 'SWAPPING', 'FAILED'];

export function createOrderDisputeClaims(ctx: TransitionContext) {
  const { clock } = ctx;
  /** The merchant's cached listings, dropped once the change has committed (as transitions.ts does). */
  const forgetListingAfterCommit = (trx: Trx, order: OrderRow) => {
    const { onOrderChanged } = ctx;
    if (onOrderChanged) afterCommit(trx, () => onOrderChanged(order.merchant_id));
  };

  return {
    /** The PAYIN paid by this PIX, locked (null: no order of ours). */
    lockByEndToEndId: (trx: Trx, endToEndId: string) => repo.lockBy(trx, 'pix_end_to_end_id', endToEndId),

    /** Holds the locked order if its tokens have not left; answers whether it is held now. */
    async hold(trx: Trx, order: OrderRow): Promise<boolean> {
      if (order.type !== 'PAYIN' || !HOLDABLE.includes(order.status)) return false;
      const held = await trx
        .updateTable('orders')
        .set({ dispute_hold: true, next_step_at: null, claimed_until: null, claimed_by: null, updated_at: clock.now() })
        .where('id', '=', order.id)
        .where('status', '=', order.status)
        .returning('id')
        .executeTakeFirst();
      if (held) forgetListingAfterCommit(trx, order);
      return held !== undefined;
    },

    /** Lets a held order go on: its next step is due at once. */
    async release(trx: Trx, order: OrderRow): Promise<void> {
      if (!order.dispute_hold) return;
      const now = clock.now();
      await trx.updateTable('orders').set({ dispute_hold: false, next_step_at: now, updated_at: now }).where('id', '=', order.id).execute();
      signalAfterCommit(trx, ORDER_STEPS_CHANNEL);
      forgetListingAfterCommit(trx, order);
    },

    /** Whether an accepted claim returns the PIX through this order (else it was paid out, or is being returned already). */
    canReturn: (order: OrderRow) => order.type === 'PAYIN' && RETURNABLE.includes(order.status) && (order.status !== 'FAILED' || order.pix_end_to_end_id !== null),

    /** The accepted claim's return: REFUNDING with natureza MED_FRAUDE under `refundId`. */
    returnPix(trx: Trx, order: OrderRow, refundId: string) {
      const reason = 'MED fraud claim accepted: the PIX is returned to the payer (natureza MED_FRAUDE)';
      return applyTransition(trx, ctx, order, 'REFUNDING', { changes: { refund_id: refundId, refund_nature: 'MED_FRAUDE', dispute_hold: false, failure_reason: reason }, reason });
    },
  };
}

export type OrderDisputeClaims = ReturnType<typeof createOrderDisputeClaims>;
