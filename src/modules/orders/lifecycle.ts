/**
 * How an order moves after creation: the one guarded transition every change goes through
 * (row, transaction record, limit release and event in one database transaction), the entry
 * points that provider and chain outcomes arrive at, and the worker's steps.
 */
import type { Updateable } from 'kysely';
import type { ChainAdapter, ChainDeposit } from '../../adapters/chain/port.ts';
import type { PixNotification, PixProvider } from '../../adapters/pix/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { OrderRow, OrderStatus, OrderTransactionType, OrdersTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal, toJsonNumber } from '../../lib/money.ts';
import { pricePayout } from '../../lib/pricing.ts';
import type { OrderMovement } from '../ledger/postings.ts';
import type { LedgerService } from '../ledger/service.ts';
import { recordEvent } from '../../db/outbox.ts';
import { providerTransactionIdField } from './events.ts';
import { ordersRepo as repo } from './repo.ts';
import { BEFORE_MONEY, assertTransition } from './state-machine.ts';

interface Movement {
  type: OrderTransactionType;
  status: 'PENDING' | 'CONFIRMED' | 'FAILED';
  amount: string;
  currency: string;
  chain?: string | null;
  txHash?: string | null;
}

interface Effects {
  changes?: Updateable<OrdersTable>;
  movement?: Movement;
  /** The event and its extra fields; `status` is the one the spec's table gives the event. */
  event?: { name: string; status: OrderStatus; fields: Record<string, unknown> };
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
export async function applyTransition(trx: Trx, ctx: TransitionContext, order: OrderRow, to: OrderStatus, effects: Effects = {}) {
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
  });
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
    });
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

const brl = (row: OrderRow) => toJsonNumber(row.amount_brl);

export interface LifecycleDeps {
  db: Db;
  clock: Clock;
  ledger: Pick<LedgerService, 'postOrderMovement'>;
  pix: PixProvider;
  chain: ChainAdapter;
  /** Smallest order in BRL (a smaller deposit fails its payout). */
  minAmountBrl: string;
  tokenDecimals: Record<string, number>;
  /** How long a worker may hold an order before another may take it over. */
  leaseMs?: number;
}

export function createOrderLifecycle(deps: LifecycleDeps) {
  const { db, clock, pix, chain } = deps;
  const ctx: TransitionContext = { clock, ledger: deps.ledger };
  const leaseMs = deps.leaseMs ?? 30_000;
  const now = () => clock.now();
  const refunding = (reason: string) => ({ name: 'order.refunding', status: 'REFUNDING' as const, fields: { failureReason: reason } });

  /** Runs in the caller's transaction when given one (so a provider's "reported" mark commits with the effect). */
  const inTransaction = <T>(outer: Trx | undefined, work: (trx: Trx) => Promise<T>) => (outer ? work(outer) : db.transaction().execute(work));

  /** The single entry point of PIX outcomes: provider webhooks, polling and the sandbox all land here. */
  async function handlePixNotification(notification: PixNotification, outer?: Trx): Promise<OrderRow | undefined> {
    return inTransaction(outer, async (trx) => {
      switch (notification.kind) {
        case 'charge_paid': {
          const order = await repo.lockBy(trx, 'pix_txid', notification.txid);
          if (!order) return undefined;
          const movement: Movement = { type: 'PIX_IN', status: 'CONFIRMED', amount: notification.amountBrl, currency: 'BRL', txHash: notification.endToEndId };
          // Already handled: notifications arrive at least once. (A charge is paid once: API Pix
          // moves a cob to CONCLUIDA, so a second endToEndId for one txid does not occur.)
          if (order.pix_end_to_end_id) return order;
          const changes = { pix_end_to_end_id: notification.endToEndId };
          const amountMatches = decimal(notification.amountBrl).eq(order.amount_brl);
          if (order.status === 'AWAITING_PAYMENT' && amountMatches) {
            return applyTransition(trx, ctx, order, 'PAYMENT_RECEIVED', {
              changes,
              movement,
              ledger: { movement: 'PAYIN_PIX_RECEIVED', received: notification.amountBrl },
              event: { name: 'order.payment_received', status: 'PAYMENT_RECEIVED', fields: { amountBrl: toJsonNumber(notification.amountBrl), pixEndToEndId: notification.endToEndId } },
              nextStepAt: now(),
            });
          }
          if (order.status === 'AWAITING_PAYMENT' || order.status === 'EXPIRED') {
            // Money arrived that cannot be used (wrong amount, or too late): it goes back by PIX.
            const reason = amountMatches
              ? 'PIX received after the order expired'
              : `PIX of ${decimal(notification.amountBrl).toFixed(2)} BRL received for an order of ${decimal(order.amount_brl).toFixed(2)} BRL`;
            return applyTransition(trx, ctx, order, 'REFUNDING', {
              changes: { ...changes, failure_reason: reason },
              movement,
              ledger: { movement: 'PAYIN_PIX_RECEIVED', received: notification.amountBrl },
              event: refunding(reason),
              nextStepAt: now(),
            });
          }
          return order;
        }
        case 'refund_settled': {
          const order = await repo.lockBy(trx, 'refund_id', notification.refundId);
          // Unknown yet: the refund is being recorded right now. Refusing makes the sender retry
          // (a provider's webhook, or the sandbox's next pass) instead of losing the outcome.
          if (!order) throw new Error(`refund ${notification.refundId} is not recorded yet`);
          if (order.status !== 'REFUNDING') return order;
          const refunded = notification.status === 'DEVOLVIDO';
          const amount = await receivedAmount(trx, order);
          return applyTransition(trx, ctx, order, refunded ? 'REFUNDED' : 'FAILED', {
            movement: { type: 'PIX_REFUND', status: refunded ? 'CONFIRMED' : 'FAILED', amount, currency: 'BRL', txHash: order.pix_end_to_end_id },
            ...(refunded
              ? {
                  event: { name: 'order.refunded', status: 'REFUNDED', fields: { amountBrl: toJsonNumber(amount) } },
                  ledger: { movement: 'PAYIN_REFUNDED', received: amount },
                }
              : {
                  changes: { failure_reason: `Refund failed: ${notification.reason ?? 'refused by the provider'}; needs an operator` },
                  event: { name: 'order.failed', status: 'FAILED', fields: { failureReason: `Refund failed: ${notification.reason ?? 'refused by the provider'}` } },
                }),
          });
        }
        case 'payout_settled': {
          const order = await repo.lockBy(trx, 'provider_transaction_id', notification.providerTransactionId);
          // The provider can settle a PIX before sendPix's answer is stored: refuse, so it is retried.
          if (!order) throw new Error(`payout ${notification.providerTransactionId} is not recorded yet`);
          if (order.status !== 'PIX_SENT_UNCONFIRMED') return order;
          if (notification.status === 'CONFIRMED') {
            return applyTransition(trx, ctx, order, 'COMPLETED', {
              changes: { pix_end_to_end_id: notification.endToEndId },
              ledger: { movement: 'PAYOUT_COMPLETED' },
              movement: { type: 'PIX_OUT', status: 'CONFIRMED', amount: order.net_amount_brl, currency: 'BRL', txHash: notification.endToEndId },
              event: { name: 'order.completed', status: 'COMPLETED', fields: { amountBrl: brl(order), pixKey: order.pix_key, pixEndToEndId: notification.endToEndId } },
            });
          }
          const reason = `PIX payout refused: ${notification.reason}`;
          return applyTransition(trx, ctx, order, 'FAILED', {
            changes: { failure_reason: reason },
            movement: { type: 'PIX_OUT', status: 'FAILED', amount: order.net_amount_brl, currency: 'BRL' },
            event: { name: 'order.failed', status: 'FAILED', fields: { failureReason: reason } },
          });
        }
      }
    });
  }

  /**
   * The entry point of detected deposits (a chain watcher, or the sandbox). A deposit of another
   * amount is re-priced at the order's locked rate and fees; one worth less than the minimum
   * order fails the order (the tokens stay in the deposit address for an operator to return).
   */
  async function handleChainDeposit(deposit: ChainDeposit, outer?: Trx): Promise<OrderRow | undefined> {
    return inTransaction(outer, async (trx) => {
      const order = await repo.lockBy(trx, 'deposit_address', deposit.depositAddress);
      if (!order || order.status !== 'AWAITING_DEPOSIT' || deposit.token !== order.token) return order;
      const movement: Movement = { type: 'CHAIN_DEPOSIT', status: 'CONFIRMED', amount: deposit.amount, currency: order.token, chain: order.chain, txHash: deposit.txHash };
      let changes: Updateable<OrdersTable> = { tx_hash: deposit.txHash };
      if (!decimal(deposit.amount).eq(order.amount_token)) {
        const repriced = pricePayout({
          amountToken: deposit.amount,
          exchangeRate: order.exchange_rate,
          tokenDecimals: deps.tokenDecimals[order.token] ?? 6,
          rates: { platformFeePercentage: order.platform_fee_percentage, merchantFeePercentage: order.merchant_fee_percentage },
        });
        if (decimal(repriced.amountBrl).lt(deps.minAmountBrl)) {
          const reason = `Deposit of ${deposit.amount} ${order.token} is worth less than the minimum order of ${deps.minAmountBrl} BRL; it is held for return`;
          return applyTransition(trx, ctx, order, 'FAILED', {
            changes: { ...changes, failure_reason: reason },
            movement,
            event: { name: 'order.failed', status: 'FAILED', fields: { failureReason: reason } },
            ledger: { movement: 'PAYOUT_DEPOSIT_RECEIVED', received: deposit.amount },
          });
        }
        changes = {
          ...changes,
          amount_token: repriced.amountToken,
          amount_brl: repriced.amountBrl,
          platform_fee_amount_brl: repriced.platformFeeAmountBrl,
          merchant_fee_amount_brl: repriced.merchantFeeAmountBrl,
          net_amount_brl: repriced.netAmountBrl,
        };
      }
      return applyTransition(trx, ctx, order, 'DEPOSIT_RECEIVED', {
        changes,
        movement,
        ledger: { movement: 'PAYOUT_DEPOSIT_RECEIVED', received: deposit.amount },
        event: { name: 'order.deposit_received', status: 'DEPOSIT_RECEIVED', fields: { amountCrypto: toJsonNumber(deposit.amount), txHash: deposit.txHash } },
        nextStepAt: now(),
      });
    });
  }

  /** Reloads and locks an order for a step; undefined if it moved on meanwhile. */
  async function lockedIn(trx: Trx, id: string, status: OrderStatus) {
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
            await applyTransition(trx, ctx, current, 'REFUNDING', { changes: { failure_reason: reason }, movement, event: refunding(reason), nextStepAt: now() });
          }
        });
        return;
      }
      case 'REFUNDING': {
        // The refund id is ours and fixed: stored before the request, so an outcome that arrives
        // at once already finds the order by it.
        const refundId = order.refund_id ?? `R${order.id.replaceAll('-', '')}`;
        const stillRefunding = () => db.updateTable('orders').where('id', '=', order.id).where('status', '=', 'REFUNDING');
        if (!order.refund_id) await stillRefunding().set({ refund_id: refundId, updated_at: new Date() }).execute();
        const amountBrl = await receivedAmount(db, order);
        await pix.refund({ endToEndId: order.pix_end_to_end_id!, refundId, amountBrl, description: 'Devolução: pedido não concluído' });
        // The outcome arrives as a refund_settled notification.
        await stillRefunding().set({ next_step_at: null, claimed_until: null, updated_at: new Date() }).execute();
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
        await db.updateTable('orders').set({ next_step_at: null, claimed_until: null }).where('id', '=', order.id).where('status', '=', order.status).execute();
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
    const claimed = await db.transaction().execute((trx) => repo.claimDueSteps(trx, now(), batch, leaseMs));
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
    await db
      .updateTable('orders')
      .set({ step_attempts: attempts, next_step_at: new Date(now().getTime() + delayMs), claimed_until: null })
      .where('id', '=', order.id)
      .where('status', '=', order.status)
      .where('claimed_until', '=', order.claimed_until!)
      .execute();
  }

  return { handlePixNotification, handleChainDeposit, runStep, runDuePass };
}

/** A step that must simply wait (e.g. a transfer not yet confirmed), not a failure. */
export class RetryLater extends Error {}

/** What goes back to the customer: the PIX actually received, which may differ from the order's amount. */
async function receivedAmount(db: Db, order: OrderRow): Promise<string> {
  const [received] = (await repo.transactionsOf(db, [order.id])).filter((tx) => tx.type === 'PIX_IN');
  return decimal(received?.amount ?? order.amount_brl).toFixed(2);
}

export type OrderLifecycle = ReturnType<typeof createOrderLifecycle>;
