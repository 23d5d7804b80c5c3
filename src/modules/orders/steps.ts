/**
 * The worker's steps: expiry of orders still awaiting money, and each claimed order's next step
 * (conversion and transfer for payins, the outgoing PIX for payouts, refunds). External calls
 * happen outside any transaction and are idempotent per order at the provider; the transition
 * that records their result is guarded, so a step repeated after a lapsed lease writes once.
 */
import type { ChainAdapter } from '../../adapters/chain/port.ts';
import type { PixProvider } from '../../adapters/pix/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { OrderRow, StoredOrderStatus } from './tables.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal, toJsonNumber } from '../../lib/money.ts';
import type { LedgerService } from '../ledger/service.ts';
import { providerTransactionIdField } from './events.ts';
import { ordersRepo as repo } from './repo.ts';
import { type Movement, type TransitionContext, applyTransition, brl, receivedAmount, refundingEvent } from './transitions.ts';

export interface StepDeps {
  db: Db;
  clock: Clock;
  ledger: Pick<LedgerService, 'postOrderMovement'>;
  pix: PixProvider;
  chain: ChainAdapter;
  /** How long a worker may hold an order before another may take it over. */
  leaseMs?: number;
}

/** A step that must simply wait (e.g. a transfer not yet confirmed), not a failure. */
export class RetryLater extends Error {}

export function createOrderSteps(deps: StepDeps) {
  const { db, clock, pix, chain } = deps;
  const ctx: TransitionContext = { clock, ledger: deps.ledger };
  const leaseMs = deps.leaseMs ?? 30_000;
  const now = () => clock.now();

  /** Reloads and locks an order for a step; undefined if it moved on meanwhile. */
  async function lockedIn(trx: Trx, id: string, status: StoredOrderStatus) {
    const order = await repo.lockBy(trx, 'id', id);
    return order?.status === status ? order : undefined;
  }

  /** One step of the worker for an order it claimed. External calls happen outside transactions. */
  async function runStep(order: OrderRow): Promise<void> {
    switch (order.status) {
      case 'PAYMENT_RECEIVED':
        await db.transaction().execute(async (trx) => {
          const current = await lockedIn(trx, order.id, 'PAYMENT_RECEIVED');
          if (current) await applyTransition(trx, ctx, current, 'SWAPPING', { nextStepAt: now() });
        });
        return;
      case 'SWAPPING': {
        // The rate was locked at creation; the conversion is the token transfer itself.
        const { txHash } = await chain.transferToken({ idempotencyKey: order.id, token: order.token, amount: order.amount_token, destination: order.destination_wallet! });
        await db.transaction().execute(async (trx) => {
          const current = await lockedIn(trx, order.id, 'SWAPPING');
          if (!current) return;
          await applyTransition(trx, ctx, current, 'TRANSFERRING', {
            changes: { tx_hash: txHash },
            movement: { type: 'CHAIN_TRANSFER', status: 'PENDING', amount: order.amount_token, currency: order.token, chain: order.chain, txHash },
            nextStepAt: now(),
          });
        });
        return;
      }
      case 'TRANSFERRING': {
        const { status, error } = await chain.getTransferStatus(order.tx_hash!);
        if (status === 'PENDING') throw new RetryLater('transfer not confirmed yet');
        await db.transaction().execute(async (trx) => {
          const current = await lockedIn(trx, order.id, 'TRANSFERRING');
          if (!current) return;
          const movement: Movement = { type: 'CHAIN_TRANSFER', status, amount: order.amount_token, currency: order.token, chain: order.chain, txHash: order.tx_hash };
          if (status === 'CONFIRMED') {
            await applyTransition(trx, ctx, current, 'COMPLETED', {
              movement,
              ledger: { movement: 'PAYIN_COMPLETED' },
              event: {
                name: 'order.completed',
                status: 'COMPLETED',
                fields: { amountBrl: brl(order), amountToken: toJsonNumber(order.amount_token), targetToken: order.token, destinationWallet: order.destination_wallet, txHash: order.tx_hash },
              },
            });
          } else {
            const reason = `On-chain transfer failed: ${error ?? 'unknown error'}`;
            await applyTransition(trx, ctx, current, 'REFUNDING', { changes: { failure_reason: reason }, movement, event: refundingEvent(reason), nextStepAt: now() });
          }
        });
        return;
      }
      case 'REFUNDING': {
        // The refund id is ours and fixed: stored before the request, so an outcome that arrives
        // at once already finds the order by it.
        const refundId = order.refund_id ?? `R${order.id.replaceAll('-', '')}`;
        if (!order.refund_id) await repo.updateIfStatus(db, order.id, 'REFUNDING', { refund_id: refundId }, now());
        const amountBrl = await receivedAmount(db, order);
        await pix.refund({ endToEndId: order.pix_end_to_end_id!, refundId, amountBrl, description: 'Devolução: pedido não concluído' });
        // The outcome arrives as a refund_settled notification.
        await repo.updateIfStatus(db, order.id, 'REFUNDING', { next_step_at: null, claimed_until: null }, now());
        return;
      }
      case 'DEPOSIT_RECEIVED':
        await db.transaction().execute(async (trx) => {
          const current = await lockedIn(trx, order.id, 'DEPOSIT_RECEIVED');
          if (!current) return;
          await applyTransition(trx, ctx, current, 'PIX_SENDING', {
            event: { name: 'order.processing', status: 'PIX_SENDING', fields: { amountBrl: brl(order), pixKey: order.pix_key } },
            nextStepAt: now(),
          });
        });
        return;
      case 'PIX_SENDING': {
        const { providerTransactionId } = await pix.sendPix({
          idempotencyKey: order.id,
          pixKey: order.pix_key!,
          pixKeyType: order.pix_key_type as 'CPF',
          amountBrl: decimal(order.net_amount_brl).toFixed(2),
          recipientName: order.recipient_name,
          description: `Pedido ${order.external_id ?? order.id}`,
        });
        await db.transaction().execute(async (trx) => {
          const current = await lockedIn(trx, order.id, 'PIX_SENDING');
          if (!current) return;
          await applyTransition(trx, ctx, current, 'PIX_SENT_UNCONFIRMED', {
            changes: { provider_transaction_id: providerTransactionId },
            movement: { type: 'PIX_OUT', status: 'PENDING', amount: order.net_amount_brl, currency: 'BRL' },
            event: {
              name: 'order.pix_sending',
              status: 'PIX_SENDING',
              fields: { amountBrl: brl(order), pixKey: order.pix_key, [providerTransactionIdField(pix.name)]: providerTransactionId },
            },
          });
        });
        return;
      }
      default:
        // Nothing to do in this status (a stale claim): drop the schedule.
        await repo.updateIfStatus(db, order.id, order.status, { next_step_at: null, claimed_until: null });
    }
  }

  /** One pass of the worker: expire what is due, then run due steps. Returns how many it touched. */
  async function runDuePass(batch = 50): Promise<number> {
    const expired = await db.transaction().execute(async (trx) => {
      const due = await repo.dueExpiries(trx, now(), batch);
      for (const { id } of due) {
        const order = await repo.lockBy(trx, 'id', id);
        if (order && (order.status === 'AWAITING_PAYMENT' || order.status === 'AWAITING_DEPOSIT')) {
          await applyTransition(trx, ctx, order, 'EXPIRED');
        }
      }
      return due.length;
    });
    const claimed = await repo.claimDueSteps(db, now(), batch, leaseMs);
    for (const order of claimed) {
      try {
        await runStep(order);
      } catch (err) {
        await backOff(order, err);
      }
    }
    return expired + claimed.length;
  }

  /**
   * A failed step is retried with exponential backoff (1 s doubling, at most 5 min), by this
   * worker only while it still holds the claim (another may have taken over a lapsed lease).
   */
  async function backOff(order: OrderRow, err: unknown) {
    const attempts = order.step_attempts + 1;
    const delayMs = err instanceof RetryLater ? 1000 : Math.min(300_000, 1000 * 2 ** Math.min(attempts, 9));
    await repo.rescheduleStep(db, order, { attempts, at: new Date(now().getTime() + delayMs) });
  }

  return { runStep, runDuePass };
}
