/**
 * Settlements paid to the merchant by PIX, exactly once (docs/decisions/0044), the way a PAYOUT
 * order sends its PIX (orders/lifecycle/steps.ts):
 *
 *   PENDING → SENDING: the merchant's ACTIVE key and the PSP idempotency key (`S<settlement hex>`,
 *     `…R<n>` for attempt n) are stored first, in one guarded UPDATE; no key → AWAITING_PIX_KEY
 *     (owed, due again when a key is approved: keys.ts).
 *   SENDING → SENT: `sendPix` under that stored key, outside any transaction. A crash or an error
 *     between the PSP's answer and the UPDATE leaves SENDING; the retry calls `sendPix` with the
 *     same key, and the PSP answers the transaction it already made (never a second PIX).
 *     A refusal of the payment itself (PixPayoutRefusedError) → FAILED.
 *   SENT → PAID | FAILED: the PSP's `payout_settled` notification (through the orders' entry
 *     point, which hands over what is not an order's: `settled`), or the worker asking the PSP
 *     (`getPayout`) while none came. PAID stores the endToEndId, the reference, and posts
 *     SETTLEMENT_PAID (merchant_settlements +A / pix_cash −A) in the same transaction; FAILED
 *     posts nothing, so the amount stays owed in merchant_settlements, shown to the merchant.
 *
 * Every write of a step is guarded by the status it started from and by the worker's claim
 * (`payout_next_at` as claimed), so a worker that lost a settlement writes nothing.
 */
import { type PixProvider, PixPayoutRefusedError } from '../../adapters/pix/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { toFixedText } from '../../lib/money.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import type { LedgerService } from '../ledger/service.ts';
import { type PayoutRow, payoutsRepo as repo } from './payouts-repo.ts';

/** How long a worker holds a claimed settlement. */
const LEASE_MS = 30_000;
/** How often a SENT settlement's PSP status is asked while no notification came. */
export const PAYOUT_POLL_MS = 30_000;
const BATCH = 20;

/** What the PSP settled a sent PIX as (the port's payout_settled, or its getPayout answer). */
export type PayoutOutcome = { status: 'CONFIRMED'; endToEndId: string } | { status: 'FAILED'; reason: string };

/** The PSP idempotency key of a settlement's attempt: letters and digits only, 35 at most (API Pix's idEnvio). */
export const settlementPayoutKey = (id: string, attempt: number): string => `S${id.replaceAll('-', '')}${attempt === 0 ? '' : `R${attempt}`}`;

/** Backoff after a failed step: 1 s doubling per attempt, at most 5 minutes. */
const retryDelayMs = (attempts: number) => Math.min(300_000, 1000 * 2 ** Math.min(attempts, 9));

export interface SettlementPayoutsDeps {
  db: Db;
  clock: Clock;
  pix: Pick<PixProvider, 'sendPix' | 'getPayout'>;
  ledger: Pick<LedgerService, 'postSettlementPaid'>;
  personalData: Pick<PersonalData, 'open'>;
  /** Told of a payout step that failed and will be retried (a PSP outage, our misconfiguration). */
  log?: { warn(details: object, message: string): void };
}

export function createSettlementPayouts(deps: SettlementPayoutsDeps) {
  const { db, clock, pix } = deps;

  /** PENDING: the key to pay and the PSP idempotency key are stored before any call. */
  async function start(row: PayoutRow): Promise<PayoutRow | undefined> {
    const key = await repo.activeKey(db, row.merchant_id);
    if (!key) return void (await repo.move(db, row, 'PENDING', { payout_status: 'AWAITING_PIX_KEY', payout_next_at: null }));
    // The claim continues (payout_next_at unchanged): this worker sends it at once.
    return repo.move(db, row, 'PENDING', { payout_status: 'SENDING', payout_key_id: key.id, payout_idempotency_key: settlementPayoutKey(row.id, row.payout_attempt) });
  }

  /** SENDING: the PIX under the stored idempotency key; a repeat answers the same transaction. */
  async function send(row: PayoutRow): Promise<undefined> {
    const key = await repo.key(db, row.payout_key_id!);
    try {
      const { providerTransactionId } = await pix.sendPix({
        idempotencyKey: row.payout_idempotency_key!,
        pixKey: deps.personalData.open('account', key.pix_key),
        pixKeyType: key.pix_key_type,
        amountBrl: toFixedText(row.amount_brl, 2),
        recipientName: null,
        description: `Liquidação ${row.id}`,
      });
      await repo.move(db, row, 'SENDING', { payout_status: 'SENT', provider_transaction_id: providerTransactionId, payout_next_at: new Date(clock.now().getTime() + PAYOUT_POLL_MS), payout_step_attempts: 0 });
    } catch (err) {
      if (!(err instanceof PixPayoutRefusedError)) throw err;
      await repo.move(db, row, 'SENDING', { payout_status: 'FAILED', payout_failure_reason: 'PIX refused by the payment provider', payout_next_at: null });
    }
    return undefined;
  }

  /** SENT and no notification yet: the PSP is asked. */
  async function poll(row: PayoutRow): Promise<undefined> {
    const state = await pix.getPayout(row.provider_transaction_id!);
    if (state?.status === 'CONFIRMED' || state?.status === 'FAILED') {
      await inTransaction(db, async (trx) => {
        const locked = await repo.lock(trx, 'id', row.id);
        if (locked) await apply(trx, locked, state);
      });
      return undefined;
    }
    await repo.move(db, row, 'SENT', { payout_next_at: new Date(clock.now().getTime() + PAYOUT_POLL_MS) });
    return undefined;
  }

  /** A locked settlement's PSP outcome, once: only from SENT (a repeat finds it PAID or FAILED). */
  async function apply(trx: Trx, row: PayoutRow, outcome: PayoutOutcome): Promise<void> {
    if (row.payout_status !== 'SENT') return;
    const now = clock.now();
    if (outcome.status === 'CONFIRMED') {
      await trx
        .updateTable('settlements')
        .set({ payout_status: 'PAID', pix_end_to_end_id: outcome.endToEndId, paid_at: now, payout_failure_reason: null, payout_next_at: null })
        .where('id', '=', row.id)
        .execute();
      await deps.ledger.postSettlementPaid(trx, { settlementId: row.id, merchantId: row.merchant_id, amountBrl: row.amount_brl, at: now });
      return;
    }
    await trx.updateTable('settlements').set({ payout_status: 'FAILED', payout_failure_reason: `PIX refused: ${outcome.reason}`, payout_next_at: null }).where('id', '=', row.id).execute();
  }

  async function step(row: PayoutRow): Promise<void> {
    let current: PayoutRow | undefined = row;
    try {
      if (current.payout_status === 'PENDING') current = await start(current);
      if (current?.payout_status === 'SENDING') await send(current);
      else if (current?.payout_status === 'SENT') await poll(current);
    } catch (err) {
      const failed = current ?? row;
      const attempts = failed.payout_step_attempts + 1;
      deps.log?.warn({ settlementId: failed.id, status: failed.payout_status, attempts, err }, 'settlement payout step failed; retrying');
      await repo.move(db, failed, failed.payout_status, { payout_step_attempts: attempts, payout_next_at: new Date(clock.now().getTime() + retryDelayMs(attempts)) });
    }
  }

  return {
    /** One pass of the worker: claims what is due and runs each one's step. Answers how many it claimed. */
    async runDue(): Promise<number> {
      const now = clock.now();
      const claimed = await repo.claimDue(db, now, LEASE_MS, BATCH);
      for (const row of claimed) await step(row);
      return claimed.length;
    },

    /**
     * A payout_settled notification the orders did not know (their entry point hands it here, in
     * its transaction): applied if it is a settlement's PIX. Answers whether it was.
     */
    async settled(trx: Trx, notification: { providerTransactionId: string } & PayoutOutcome): Promise<boolean> {
      const row = await repo.lock(trx, 'provider_transaction_id', notification.providerTransactionId);
      if (!row) return false;
      await apply(trx, row, notification);
      return true;
    },
  };
}

export type SettlementPayouts = ReturnType<typeof createSettlementPayouts>;
