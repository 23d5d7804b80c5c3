/**
 * Reconciliation: compares the PIX provider's state with ours and applies what a lost
 * notification would have applied, through the same entry point (`handlePixNotification`), so a
 * notification and its reconciliation racing each other still act once (the handlers lock the
 * order and act only if its status still calls for it).
 *
 * - Charges paid but not recorded: the provider's received PIX of a time window (API Pix
 *   `GET /pix?inicio=&fim=`), matched by txid (ours, so the match is exact); a PIX on a standing
 *   charge's static code (many per txid) by its endToEndId.
 * - Refunds requested and not settled, payouts sent and not confirmed: one lookup per order, only
 *   for orders that have waited longer than `graceSeconds` (the notification's own time to arrive).
 *
 * The window's start is kept per process: the first pass looks back `lookbackSeconds`, later
 * passes from the previous pass's end less an overlap (the provider's clock and ours differ, and
 * a PIX may be listed a little after it settled). Several workers may run it: each application is
 * idempotent. Every pass is recorded with what it applied, or its error (reconciliation-runs.ts).
 */
import type { PixLookups, PixNotification, ReceivedPix } from '../../../adapters/pix/port.ts';
import type { ReconciliationSettings } from '../../../config.ts';
import type { Db } from '../../../db/database.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { OrderNotifications } from '../lifecycle/notifications.ts';
import { reconciliationRepo as repo } from './reconciliation-repo.ts';
import { pspReconciliationRuns } from './reconciliation-runs.ts';

/** The configuration's reconciliation settings a pass reads, and two tuning values no variable sets. */
type PassSettings = Pick<ReconciliationSettings, 'graceSeconds' | 'lookbackSeconds'> & {
  /** How far each later window reaches back before the previous one's end. */
  overlapSeconds?: number;
  /** Most refunds and payouts looked up per pass. */
  batch?: number;
};

export interface ReconciliationPassResult {
  chargesApplied: number;
  refundsApplied: number;
  payoutsApplied: number;
}

export function createReconciliation(deps: {
  db: Db;
  clock: Clock;
  pix: PixLookups;
  notifications: Pick<OrderNotifications, 'handlePixNotification'>;
  settings: PassSettings;
  /** Done once before the first pass, retried until it succeeds (a real PSP: register our callback). */
  prepare?: () => Promise<void>;
}) {
  const { db, clock, pix, notifications, settings } = deps;
  let prepared = !deps.prepare;
  const overlapMs = (settings.overlapSeconds ?? 600) * 1000;
  const batch = settings.batch ?? 100;
  let windowStart: Date | undefined;

  async function charges(now: Date): Promise<number> {
    const from = windowStart ? new Date(windowStart.getTime() - overlapMs) : new Date(now.getTime() - settings.lookbackSeconds * 1000);
    const received = (await pix.listReceivedPix({ from, to: now })).filter((pix) => pix.txid !== null);
    const unpaid = new Set((await repo.unpaidByTxid(db, [...new Set(received.map((pix) => pix.txid!))])).map((order) => order.pix_txid));
    let applied = 0;
    for (const paid of received) {
      if (!unpaid.has(paid.txid)) continue;
      unpaid.delete(paid.txid); // a charge is paid once; a second listing of it is the same PIX
      await notifications.handlePixNotification({ kind: 'charge_paid', txid: paid.txid!, endToEndId: paid.endToEndId, amountBrl: paid.amountBrl, paidAt: paid.paidAt });
      applied++;
    }
    applied += await staticPix(received);
    windowStart = now;
    return applied;
  }

  /**
   * PIX paid to a static code (a standing charge's txid, at most 25 characters) that no order
   * recorded: handed over as the PSP's record says, payer included; the standing charge makes its order.
   */
  async function staticPix(received: ReceivedPix[]): Promise<number> {
    const onStatic = received.filter((pix) => pix.txid!.length <= 25);
    const recorded = new Set(await repo.recordedEndToEndIds(db, onStatic.map((pix) => pix.endToEndId)));
    let applied = 0;
    for (const paid of onStatic) {
      if (recorded.has(paid.endToEndId)) continue;
      const { payer, ...pix } = paid;
      if (await notifications.handlePixNotification({ kind: 'charge_paid', ...pix, txid: paid.txid!, ...(payer ? { payer } : {}) })) applied++;
    }
    return applied;
  }

  async function refunds(before: Date): Promise<number> {
    let applied = 0;
    for (const order of await repo.requestedRefunds(db, before, batch)) {
      const state = await pix.getRefund(order.pix_end_to_end_id!, order.refund_id!);
      if (!state || state.status === 'EM_PROCESSAMENTO') continue;
      const notification: PixNotification =
        state.status === 'DEVOLVIDO'
          ? { kind: 'refund_settled', endToEndId: order.pix_end_to_end_id!, refundId: order.refund_id!, status: 'DEVOLVIDO' }
          : { kind: 'refund_settled', endToEndId: order.pix_end_to_end_id!, refundId: order.refund_id!, status: 'NAO_REALIZADO', reason: state.reason };
      await notifications.handlePixNotification(notification);
      applied++;
    }
    return applied;
  }

  async function payouts(before: Date): Promise<number> {
    let applied = 0;
    for (const order of await repo.unconfirmedPayouts(db, before, batch)) {
      const id = order.provider_transaction_id!;
      const state = await pix.getPayout(id);
      if (!state || state.status === 'PROCESSING') continue;
      await notifications.handlePixNotification(
        state.status === 'CONFIRMED'
          ? { kind: 'payout_settled', providerTransactionId: id, status: 'CONFIRMED', endToEndId: state.endToEndId }
          : { kind: 'payout_settled', providerTransactionId: id, status: 'FAILED', reason: state.reason },
      );
      applied++;
    }
    return applied;
  }

  /** One pass: every kind of outcome; returns how many notifications it applied. */
  async function runPass(): Promise<ReconciliationPassResult> {
    if (!prepared) {
      await deps.prepare!();
      prepared = true;
    }
    const now = clock.now();
    const before = new Date(now.getTime() - settings.graceSeconds * 1000);
    const result = { chargesApplied: 0, refundsApplied: 0, payoutsApplied: 0 };
    try {
      result.chargesApplied = await charges(now);
      result.refundsApplied = await refunds(before);
      result.payoutsApplied = await payouts(before);
    } catch (err) {
      await pspReconciliationRuns.record(db, { startedAt: now, finishedAt: clock.now(), ...result, error: err instanceof Error ? err.message.slice(0, 500) : String(err) });
      throw err;
    }
    await pspReconciliationRuns.record(db, { startedAt: now, finishedAt: clock.now(), ...result, error: null });
    return result;
  }

  return { runPass, lastRuns: (limit: number) => pspReconciliationRuns.last(db, limit) };
}

export type Reconciliation = ReturnType<typeof createReconciliation>;
