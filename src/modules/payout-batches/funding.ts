/**
 * A payout batch's money (docs/architecture/payout-batches.md, "Funding"): the deposit to its
 * address funds it once (the deposit watcher's hook, or the sandbox's deposit), held for the
 * merchant in the ledger; then each valid line becomes a PAYOUT order (source PAYOUT_BATCH,
 * `order.created`) by the creation pipeline at the line's price, and takes its share of the
 * deposit by the usual AWAITING_DEPOSIT → DEPOSIT_RECEIVED transition, from which the worker's
 * PIX steps pay it as any PAYOUT. A line whose order is refused when made (limits, receiver
 * changed) is REFUSED alone; a PIX the PSP refuses fails its order alone; the rest go on.
 */
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import type { ChainDeposit } from '../../adapters/chain/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal } from '../../lib/money.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { inTransaction, withinOrNew } from '../../platform/commit-signals.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { CreatedOrder, OrderVariant, ParsedOrder } from '../orders/creation/create-order.ts';
import { type TransitionContext, applyTransition } from '../orders/lifecycle/transitions.ts';
import { arrivalTime } from '../orders/lifecycle/arrival-time.ts';
import type { OrderSource } from '../orders/order-source.ts';
import { ordersRepo } from '../orders/repo.ts';
import type { PayoutBody } from '../orders/schemas.ts';
import type { OrderPrice } from '../quotes/service.ts';
import { UNFUNDED_STATUSES, payoutBatchesRepo as repo } from './repo.ts';
import type { PayoutBatchItemRow, PayoutBatchRow } from './tables.ts';

type PayoutVariant = OrderVariant<Static<typeof PayoutBody>, ParsedOrder>;

/** The pipeline's create, made for one line at its stored price (the caller builds it so). */
export type CreateLineOrder = (
  price: OrderPrice,
  merchantId: string,
  body: Static<typeof PayoutBody>,
  source: OrderSource & { orderId: string },
) => Promise<CreatedOrder>;

export interface FundingDeps {
  db: Db;
  clock: Clock;
  variant: PayoutVariant;
  createOrder: CreateLineOrder;
  ledger: Pick<LedgerService, 'postPayoutBatchTokens'>;
  transitions: TransitionContext;
  personalData: Pick<PersonalData, 'openNullable'>;
  /** Lines made orders per pass of one batch. */
  chunk?: number;
}

/** What a deposit to a batch's address did (the watcher records it as the deposit's outcome). */
export type BatchDepositOutcome = 'CREDITED' | 'LATE' | 'REPEATED';

/** A line's order id, the same at every attempt: a pass that died after making it finds it again. */
export function lineOrderId(batchId: string, line: number): string {
  const hex = createHash('sha256').update(`payout-batch:${batchId}:${line}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Refusals of the moment (a dependency down): the line waits for the next pass. */
const TRANSIENT = new Set(['PROVIDER_UNAVAILABLE', 'PRICE_UNAVAILABLE', 'SERVICE_UNAVAILABLE']);

export function createBatchFunding(deps: FundingDeps) {
  const { db, clock } = deps;
  const chunk = deps.chunk ?? 50;

  /**
   * A deposit to an address: undefined when no batch holds it (an order's address). Funds the
   * batch once, when what arrived covers its total; less waits for more (recorded, not booked);
   * a deposit after funding, or to a batch no longer waiting, is held for an operator to return.
   */
  function handleDeposit(deposit: ChainDeposit, outer?: Trx): Promise<BatchDepositOutcome | undefined> {
    return withinOrNew(db, outer, async (trx) => {
      const batch = await repo.lockByAddress(trx, deposit.depositAddress);
      if (!batch) return undefined;
      if (batch.funded_at !== null) return 'REPEATED';
      const now = clock.now();
      const waiting = batch.status === 'AWAITING_FUNDING' || batch.status === 'PAUSED';
      // Judged by when the chain confirmed it, never later than now (the orders' rule, arrival-time.ts).
      if (!waiting || deposit.token !== batch.token || arrivalTime(deposit.blockTime, now) >= new Date(batch.rate_expires_at)) return 'LATE';
      const received = decimal(batch.funded_amount_token ?? '0').plus(deposit.amount);
      const covered = received.gte(batch.total_token);
      await repo.move(trx, batch.id, [batch.status], {
        status: covered && batch.status === 'AWAITING_FUNDING' ? 'PAYING' : batch.status,
        funded_amount_token: received.toString(),
        ...(covered ? { funded_tx_hash: deposit.txHash, funded_at: now } : {}),
        updated_at: now,
      });
      // All of it held for the merchant; each line's order takes its share (releaseLine).
      if (covered) await deps.ledger.postPayoutBatchTokens(trx, { merchantId: batch.merchant_id, movement: 'PAYOUT_BATCH_FUNDED', referenceId: batch.id, token: batch.token, amount: received.toString(), at: now });
      return 'CREDITED';
    });
  }

  const bodyOf = (batch: PayoutBatchRow, item: PayoutBatchItemRow): Static<typeof PayoutBody> => {
    const pixKey = deps.personalData.openNullable('account', item.pix_key);
    const recipientName = deps.personalData.openNullable('name', item.recipient_name);
    return {
      receiverId: item.receiver_id!,
      amountCrypto: item.amount_token!,
      sourceToken: batch.token,
      chain: batch.chain,
      ...(pixKey !== null ? { pixKey, pixKeyType: item.pix_key_type as never } : {}),
      ...(recipientName !== null ? { recipientName } : {}),
      ...(item.external_id !== null ? { externalId: item.external_id } : {}),
    };
  };

  /** One line: its order made (or found again), then funded from the batch in one transaction. */
  async function releaseLine(batch: PayoutBatchRow, item: PayoutBatchItemRow): Promise<'done' | 'wait'> {
    const orderId = lineOrderId(batch.id, item.line);
    if (!(await ordersRepo.find(db, orderId, batch.merchant_id))) {
      try {
        await deps.createOrder(item.price!, batch.merchant_id, bodyOf(batch, item), { kind: 'PAYOUT_BATCH', id: batch.id, orderId });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (TRANSIENT.has(err.code)) return 'wait';
        const errors = JSON.stringify({ code: err.code, message: err.message });
        await repo.setItem(db, batch.id, item.line, 'VALID', { status: 'REFUSED', errors, updated_at: clock.now() });
        return 'done';
      }
    }
    await inTransaction(db, async (trx) => {
      const locked = await repo.lock(trx, batch.id);
      const line = await repo.lockItem(trx, batch.id, item.line);
      const order = await ordersRepo.lockBy(trx, 'id', orderId);
      if (!locked || line?.status !== 'VALID' || !order) return;
      const now = clock.now();
      if (locked.status !== 'PAYING') {
        // Paused or cancelled meanwhile: the order made is not funded; it expires now (its limit given back).
        if (order.status === 'AWAITING_DEPOSIT') await applyTransition(trx, deps.transitions, order, 'EXPIRED');
        if (locked.status === 'CANCELLED') await repo.setItem(trx, batch.id, item.line, 'VALID', { status: 'CANCELLED', updated_at: now });
        return;
      }
      await repo.setItem(trx, batch.id, item.line, 'VALID', { status: 'ORDERED', order_id: order.id, updated_at: now });
      if (order.status !== 'AWAITING_DEPOSIT') return;
      await deps.ledger.postPayoutBatchTokens(trx, { merchantId: batch.merchant_id, movement: 'PAYOUT_BATCH_ITEM_RELEASED', referenceId: order.id, token: order.token, amount: order.amount_token, at: now });
      await applyTransition(trx, deps.transitions, order, 'DEPOSIT_RECEIVED', {
        changes: { tx_hash: locked.funded_tx_hash },
        moved: { amount: order.amount_token, currency: order.token, chain: order.chain, txHash: locked.funded_tx_hash },
      });
    });
    return 'done';
  }

  /** Up to `chunk` lines of one PAYING batch; the batch COMPLETED when none is left. Answers lines handled. */
  async function releaseBatch(batchId: string): Promise<number> {
    const batch = await repo.findById(db, batchId);
    if (!batch || batch.status !== 'PAYING') return 0;
    const items = await repo.nextValid(db, batch.id, chunk);
    let handled = 0;
    for (const item of items) {
      if ((await releaseLine(batch, item)) === 'wait') return handled;
      handled += 1;
    }
    if (items.length < chunk && (await repo.nextValid(db, batch.id, 1)).length === 0) {
      await repo.move(db, batch.id, ['PAYING'], { status: 'COMPLETED', updated_at: clock.now() });
    }
    return handled;
  }

  return {
    handleDeposit,
    releaseBatch,

    /** Every line of the batch (the sandbox's deposit and tests): passes until it leaves PAYING. */
    async releaseAll(batchId: string): Promise<void> {
      while ((await releaseBatch(batchId)) > 0);
    },

    /** The worker's pass: PAYING batches a chunk each, and the expiry of batches never funded in time. */
    async runPass(): Promise<number> {
      let handled = 0;
      for (const { id } of await repo.paying(db, 20)) handled += await releaseBatch(id);
      const now = clock.now();
      for (const { id } of await repo.expired(db, now, 100)) {
        // Under the batch's lock, as the deposit watcher's handleDeposit: a deposit recorded
        // meanwhile is counted before this (then held below) or LATE after it.
        await inTransaction(db, async (trx) => {
          const locked = await repo.lock(trx, id);
          if (!locked || locked.funded_at !== null || !UNFUNDED_STATUSES.includes(locked.status)) return;
          await repo.closeValid(trx, id, 'CANCELLED', now);
          await repo.move(trx, id, [locked.status], { status: 'EXPIRED', updated_at: now });
          // What arrived short of the total: out of the batch, held for an operator to return (decision 0051).
          await repo.holdUnfunded(trx, locked);
        });
      }
      return handled;
    },
  };
}

export type BatchFunding = ReturnType<typeof createBatchFunding>;
