/**
 * The worker's side of orders: expire what is due, then run each claimed order's next step. A
 * step's external call (token transfer, transfer status, refund, sending the PIX) happens outside
 * any transaction and is idempotent per order at the provider (a token transfer: its signed bytes
 * are stored before they are sent, transfer-steps.ts); its outcome is then applied by
 * `applyTransition`, guarded by the status the step started from.
 *
 * Claims: due orders (`next_step_at`) are taken with FOR UPDATE SKIP LOCKED and a lease
 * (`claimed_until`, 30 s) in the name of the worker instance (`claimed_by`). A worker killed
 * mid-step leaves its claims to the next worker as soon as it is found dead (its start, or
 * within a few seconds: platform/worker-presence.ts), not when the lease lapses; that worker
 * repeats the idempotent call. Every write of a step is guarded by the claim it ran under, so a
 * worker that lost an order writes nothing. A failed step backs off exponentially.
 */
import type { ChainAdapter } from '../../../adapters/chain/port.ts';
import { inTransaction } from '../../../platform/commit-signals.ts';
import { type PixProvider, PixPayoutRefusedError } from '../../../adapters/pix/port.ts';
import type { Db, Trx } from '../../../db/database.ts';
import { createLaneScheduler } from '../../../platform/lanes.ts';
import { leaseEnd } from '../../../platform/leases.ts';
import type { PersonalData } from '../../../lib/personal-data.ts';
import { openOrderColumns } from '../sealed-columns.ts';
import type { OrderRow, StoredOrderStatus } from '../tables.ts';
import type { Clock } from '../../../lib/clock.ts';
import { decimal } from '../../../lib/money.ts';
import type { LedgerService } from '../../ledger/service.ts';
import { ordersRepo as repo } from '../repo.ts';
import type { TransferMetrics } from './metrics.ts';
import { RetryLater, type TransferLog, createTransferSteps } from './transfer-steps.ts';
import { createTransferBatches } from './transfer-batch.ts';
import { payoutIdempotencyKey } from './operator-actions.ts';
import { type TransitionContext, type TransitionFacts, applyTransition, leavesStepDue } from './transitions.ts';
import type { OrderLog } from '../lifecycle-log.ts';

export interface StepsDeps {
  db: Db;
  clock: Clock;
  ledger: Pick<LedgerService, 'postOrderEntries'>;
  onOrderChanged?: TransitionContext['onOrderChanged'];
  pix: PixProvider;
  chain: ChainAdapter;
  /** Opens the PIX key and recipient name, sealed at rest (sealed-columns.ts), as the PIX leaves. */
  personalData: Pick<PersonalData, 'openNullable' | 'seal' | 'sealNullable' | 'versionOf'>;
  /** How long a worker may hold an order before another may take it over. */
  leaseMs?: number;
  /** Orders whose steps run at once in one pass (each uses a connection while it writes). */
  parallelSteps?: number;
  /** CHAIN_TRANSFER_MAX_ATTEMPTS: signed transactions per PAYIN, each expired unlanded, before it is refunded (default 5). */
  transferMaxAttempts?: number;
  /** CHAIN_TRANSFER_BATCH_MAX: PAYIN transfers one transaction may carry (1: one per order; transfer-batch.ts). */
  transferBatchMax?: number;
  /** Where a rebuilt or abandoned transfer is told (transfer-steps.ts), and each change of an order's status (lifecycle-log.ts). */
  log?: TransferLog & OrderLog;
  metrics?: TransferMetrics;
  /** Test-only (main.ts, NODE_ENV=test): called once a signed transfer is committed, before its first send. */
  afterTransferStored?: (stored: { orders: number }) => void;
  /** A pending transfer's wake-up when the node notifies it (transfer-wakeups.ts); unset, the TRANSFERRING retries poll alone. */
  watchTransfer?: (orderId: string, txHash: string) => void;
  /** Test-only (main.ts, NODE_ENV=test; test-hold.ts): an order it holds is left where it is, its step dropped. */
  holdStep?: (order: OrderRow) => boolean;
  /** The treasury wallet a transfer goes from (liquidity.ts, decision 0057); unset, wallet 1. */
  chooseWallet?: (token: string, amount: string) => Promise<number>;
}

/** How the worker's lanes claim: batch size, orders at once, and the stop signal of the job. */
export interface LaneOptions {
  batch?: number;
  parallel?: number;
  signal?: AbortSignal;
  /** Told of what failed outside the pass that started it: a lane's own bookkeeping (its backoff), a claim made when an order ended. */
  onError?: (err: unknown) => void;
  /** The worker instance whose claims these are (the worker runtime's): claims name it, and are free once it is gone. */
  holder?: () => string | null;
}

export { RetryLater };

/** Backoff after a failed step: 1 s doubling per attempt, at most 5 minutes. A RetryLater waits 1 s. */
function retryDelayMs(err: unknown, attempts: number): number {
  return err instanceof RetryLater ? 1000 : Math.min(300_000, 1000 * 2 ** Math.min(attempts, 9));
}

/** Steps one worker runs back to back for one order before it goes back to the queue. */
const MAX_CHAINED_STEPS = 8;
/** Expiries are looked for at most this often (a pass runs at every wake-up). */
const EXPIRY_EVERY_MS = 250;

export function createOrderSteps(deps: StepsDeps) {
  const { db, clock, pix, chain } = deps;
  const ctx: TransitionContext = { clock, ledger: deps.ledger, onOrderChanged: deps.onOrderChanged, personalData: deps.personalData, log: deps.log };
  const leaseMs = deps.leaseMs ?? 30_000;

  /**
   * Applies a step's outcome in its own transaction, only if the order is still in the status the
   * step started from (a notification may have moved it: then nothing is written). The guarded
   * UPDATE is the check; `order` is the row this worker claimed or last wrote, so its other
   * columns are current. When the outcome leaves the next step due at once, this worker keeps its
   * claim (a new lease in the same UPDATE) and returns the row to run that step itself: no wake-up,
   * no claim statement, no other worker racing for it.
   */
  async function moveOn(order: OrderRow, to: StoredOrderStatus, facts: TransitionFacts = {}): Promise<OrderRow | undefined> {
    const continues = leavesStepDue(order, to);
    const underClaim = { claimed_by: order.claimed_by, claimed_until: order.claimed_until };
    const updated = await inTransaction(db, (trx: Trx) =>
      applyTransition(trx, ctx, order, to, { ...facts, underClaim, ...(continues ? { claimedUntil: leaseEnd(clock.now(), leaseMs) } : {}) }),
    );
    return continues ? updated : undefined;
  }

  const { swap, confirmTransfer } = createTransferSteps({
    db,
    clock,
    chain,
    moveOn,
    maxAttempts: deps.transferMaxAttempts ?? 5,
    log: deps.log,
    metrics: deps.metrics,
    afterTransferStored: deps.afterTransferStored,
    watchTransfer: deps.watchTransfer,
    chooseWallet: deps.chooseWallet,
  });
  const batches = createTransferBatches({
    db,
    clock,
    chain,
    ctx,
    leaseMs,
    maxBatch: deps.transferBatchMax ?? 1,
    maxAttempts: deps.transferMaxAttempts ?? 5,
    log: deps.log,
    watchTransfer: deps.watchTransfer,
    afterTransferStored: deps.afterTransferStored,
    chooseWallet: deps.chooseWallet,
  });

  async function requestRefund(order: OrderRow): Promise<undefined> {
    // The refund id is ours and fixed: stored before the request, so an outcome that arrives at
    // once already finds the order by it.
    const refundId = order.refund_id ?? `R${order.id.replaceAll('-', '')}`;
    if (!order.refund_id) await repo.reschedule(db, order, { refund_id: refundId, updated_at: clock.now() });
    const amountBrl = await repo.refundAmount(db, order);
    const description = order.refund_nature === 'MED_FRAUDE' ? 'Devolução MED: fraude confirmada' : 'Devolução: pedido não concluído';
    await pix.refund({ endToEndId: order.pix_end_to_end_id!, refundId, amountBrl, description, nature: order.refund_nature });
    // The outcome arrives as a refund_settled notification; until then the worker has nothing to do.
    await repo.reschedule(db, order, { next_step_at: null, claimed_until: null, updated_at: clock.now() });
    return undefined;
  }

  /** The provider refused the PIX outright: it will never be sent, so the order fails now instead of retrying forever. */
  async function payoutRefused(order: OrderRow) {
    const reason = 'PIX payout refused by the payment provider';
    return moveOn(order, 'FAILED', { changes: { failure_reason: reason, payout_refused_at: clock.now() }, moved: { amount: order.net_amount_brl, currency: 'BRL' }, reason });
  }

  async function sendPix(order: OrderRow) {
    const clear = openOrderColumns(deps.personalData, { pix_key: order.pix_key, recipient_name: order.recipient_name });
    const { providerTransactionId } = await pix.sendPix({
      idempotencyKey: payoutIdempotencyKey(order),
      pixKey: clear.pix_key!,
      pixKeyType: order.pix_key_type as 'CPF',
      amountBrl: decimal(order.net_amount_brl).toFixed(2),
      recipientName: clear.recipient_name,
      description: `Pedido ${order.external_id ?? order.id}`,
    });
    return moveOn(order, 'PIX_SENT_UNCONFIRMED', { changes: { provider_transaction_id: providerTransactionId }, moved: { amount: order.net_amount_brl, currency: 'BRL' } });
  }

  /** Rows moved to SWAPPING just after their batch found no mates: their SWAPPING step does not look again. */
  const foundNoMates = new WeakSet<OrderRow>();

  /**
   * One step of the worker for an order it claimed, chosen by the order's status. Returns the
   * order when its next step is due at once and still claimed by this worker.
   */
  async function runStep(order: OrderRow): Promise<OrderRow | undefined> {
    if (deps.holdStep?.(order)) {
      // As under ROLES=api: the step never comes (test-only).
      await repo.reschedule(db, order, { next_step_at: null, claimed_until: null });
      return undefined;
    }
    switch (order.status) {
      case 'PAYMENT_RECEIVED': {
        // With batch mates, the leader moves to SWAPPING in the batch's own transaction, with theirs.
        const batched = await batches.swapInBatch(order);
        if (batched) return batched.next;
        const swapping = await moveOn(order, 'SWAPPING');
        if (swapping) foundNoMates.add(swapping);
        return swapping;
      }
      case 'SWAPPING': {
        const batched = foundNoMates.has(order) ? undefined : await batches.swapInBatch(order);
        return batched ? batched.next : swap(order);
      }
      case 'TRANSFERRING': {
        const batched = await batches.confirmInBatch(order);
        return batched ? batched.next : confirmTransfer(order);
      }
      case 'REFUNDING':
        return requestRefund(order);
      case 'DEPOSIT_RECEIVED':
        return moveOn(order, 'PIX_SENDING');
      case 'PIX_SENDING':
        return sendPix(order).catch((err: unknown) => (err instanceof PixPayoutRefusedError ? payoutRefused(order) : Promise.reject(err)));
      default:
        // Nothing to do in this status (a stale claim): drop the schedule.
        await repo.reschedule(db, order, { next_step_at: null, claimed_until: null });
        return undefined;
    }
  }

  /** Orders still awaiting money past expiresAt become EXPIRED (which gives their limit back). */
  function expireDue(batch: number): Promise<number> {
    return inTransaction(db, async (trx) => {
      const due = await repo.dueExpiries(trx, clock.now(), batch);
      for (const { id } of due) {
        const order = await repo.lockBy(trx, 'id', id);
        if (order && (order.status === 'AWAITING_PAYMENT' || order.status === 'AWAITING_DEPOSIT')) {
          await applyTransition(trx, ctx, order, 'EXPIRED');
        }
      }
      return due.length;
    });
  }

  /** A failed step is retried later, by this worker only while it still holds the claim. */
  async function backOff(order: OrderRow, err: unknown) {
    const attempts = order.step_attempts + 1;
    await repo.backOff(db, order, { attempts, at: new Date(clock.now().getTime() + retryDelayMs(err, attempts)) });
  }

  /**
   * Runs a claimed order's step, then, while each step leaves the next one due at once (and this
   * worker's claim with it), runs that one too: PAYMENT_RECEIVED → SWAPPING → TRANSFERRING →
   * COMPLETED in one go, with no claim or wake-up in between. Past MAX_CHAINED_STEPS the claim is
   * given back, for any worker's next pass.
   */
  async function stepOrBackOff(order: OrderRow): Promise<void> {
    let current: OrderRow | undefined = order;
    for (let hops = 0; current; hops++) {
      if (hops === MAX_CHAINED_STEPS) {
        await repo.reschedule(db, current, { claimed_until: null });
        return;
      }
      const claimed: OrderRow = current;
      try {
        current = await runStep(claimed);
      } catch (err) {
        await backOff(claimed, err);
        return;
      }
    }
  }

  let lastExpiry = 0;
  /** Expiries are looked for at most every EXPIRY_EVERY_MS, however often passes and claims run. */
  async function expireIfDue(batch: number): Promise<number> {
    const now = clock.now().getTime();
    const sinceExpiry = now - lastExpiry;
    if (sinceExpiry < EXPIRY_EVERY_MS && sinceExpiry >= 0) return 0;
    lastExpiry = now;
    return expireDue(batch);
  }

  /**
   * The worker's lanes (platform/lanes.ts): at most `parallel` orders run at once, each claimed by
   * one worker, so an order that becomes due while others run starts in a free lane at once, never
   * after the slowest order of a batch (issue 13: p99 from PIX to COMPLETED).
   */
  const lanes = createLaneScheduler<OrderRow>({
    prepare: (options) => expireIfDue(options.batch ?? 50),
    claim: claimSteps,
    run: stepOrBackOff,
  });

  /** The last claim found no order due: the queue is empty, as it is when idle. */
  let drained = false;
  /**
   * Claims due steps. After a claim that found nothing, a plain read asks first whether anything
   * is due: a claim that finds nothing (an UPDATE of orders, planned at each run) costs several
   * times the read, twice a second in an idle worker's sweeps. On the embedded PGlite an idle
   * service spent 65 ms of CPU per second instead of 77. A claim that finds work never reads first.
   */
  async function claimSteps(free: number, options: { holder?: () => string | null }): Promise<OrderRow[]> {
    const now = clock.now();
    if (drained && !(await repo.anyStepDue(db, now))) return [];
    const claimed = await repo.claimDueSteps(db, now, free, leaseMs, options.holder?.() ?? null);
    drained = claimed.length === 0;
    return claimed;
  }

  /** Claims into the free lanes and starts what it claimed; concurrent calls coalesce into one more round. Resolves with how many orders it touched. */
  function fill(options: LaneOptions = {}): Promise<number> {
    const { signal, onError, holder } = options;
    return lanes.fill({
      lanes: options.parallel ?? deps.parallelSteps ?? 8,
      batch: options.batch ?? 50,
      ...(signal ? { signal } : {}),
      ...(onError ? { onError } : {}),
      ...(holder ? { holder } : {}),
    });
  }

  /** Resolves when no order is running (and no fill is claiming). */
  const drain = () => lanes.drain();

  /**
   * Runs everything due now to its end (tests, tools): fills, waits for the lanes, and repeats
   * until a fill finds nothing. Returns how many orders it touched.
   */
  async function runDuePass(options: Omit<LaneOptions, 'onError'> = {}): Promise<number> {
    const errors: unknown[] = [];
    const onError = (err: unknown) => errors.push(err);
    let total = 0;
    for (;;) {
      const touched = await fill({ ...options, onError });
      await drain();
      if (errors.length > 0) throw errors[0];
      total += touched;
      if (touched === 0) return total;
    }
  }

  return { runStep, runDuePass, fill, drain };
}

export type OrderSteps = ReturnType<typeof createOrderSteps>;
