/**
 * SQL of settlements' payment by PIX (payouts.ts): the worker's claim on due settlements, its
 * guarded moves (each UPDATE only from the status the step started from, under the claim it made),
 * and the requeue a newly approved key makes.
 */
import type { Selectable, Updateable } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';
import { claimDue } from '../../platform/leases.ts';
import type { SettlementPayoutStatus, SettlementsTable } from '../ledger/tables.ts';

/** The columns a payout step reads. */
export const PAYOUT_COLUMNS = [
  'id',
  'merchant_id',
  'amount_brl',
  'payout_status',
  'payout_key_id',
  'payout_attempt',
  'payout_idempotency_key',
  'provider_transaction_id',
  'payout_next_at',
  'payout_step_attempts',
] as const satisfies ReadonlyArray<keyof SettlementsTable>;

export type PayoutRow = Pick<Selectable<SettlementsTable>, (typeof PAYOUT_COLUMNS)[number]>;

/** The PSP idempotency key of attempt n is `<key>R<n>` (35 characters at most, API Pix's idEnvio): 9 sends again at most. */
export const MAX_PAYOUT_ATTEMPT = 9;

export const payoutsRepo = {
  /**
   * Claims up to `limit` due settlements (the one claim of platform/leases.ts: SKIP LOCKED, two
   * workers never take one), the lease written into `payout_next_at` (their next look), which
   * every write of the step is guarded by. Only settlements with a step have one (PENDING,
   * SENDING, SENT): the others' is null.
   */
  claimDue(db: Db, now: Date, leaseMs: number, limit: number): Promise<PayoutRow[]> {
    return claimDue<PayoutRow>(db, { table: 'settlements', dueColumn: 'payout_next_at', leaseIn: 'due', columns: PAYOUT_COLUMNS, now, limit, leaseMs });
  },

  /** A guarded move: only from `from`, and only while `row`'s claim holds (its payout_next_at as claimed). */
  move(db: Db, row: PayoutRow, from: SettlementPayoutStatus, changes: Updateable<SettlementsTable>): Promise<PayoutRow | undefined> {
    let query = db.updateTable('settlements').set(changes).where('id', '=', row.id).where('payout_status', '=', from);
    query = row.payout_next_at === null ? query.where('payout_next_at', 'is', null) : query.where('payout_next_at', '=', row.payout_next_at);
    return query.returning(PAYOUT_COLUMNS).executeTakeFirst();
  },

  lock(trx: Trx, by: 'id' | 'provider_transaction_id', value: string): Promise<PayoutRow | undefined> {
    return trx.selectFrom('settlements').select(PAYOUT_COLUMNS).where(by, '=', value).forUpdate().executeTakeFirst();
  },

  activeKey(db: Db, merchantId: string) {
    return db.selectFrom('settlement_pix_keys').select(['id']).where('merchant_id', '=', merchantId).where('status', '=', 'ACTIVE').executeTakeFirst();
  },

  key(db: Db, id: string) {
    return db.selectFrom('settlement_pix_keys').select(['pix_key_type', 'pix_key']).where('id', '=', id).executeTakeFirstOrThrow();
  },

  /**
   * A key was approved for the merchant: what waited for one is due now, and what was refused is
   * sent again under its next attempt (a new PSP idempotency key, to the new key), up to
   * MAX_PAYOUT_ATTEMPT. Answers the settlements due again.
   */
  async requeue(trx: Trx, merchantId: string, now: Date): Promise<string[]> {
    // First, a PENDING one a worker is looking at without the key yet is made due again: its
    // claim changes, so that worker's move to AWAITING_PIX_KEY finds nothing (or, committed
    // first, is turned back by the next statement, which reads after it).
    await trx.updateTable('settlements').set({ payout_next_at: now }).where('merchant_id', '=', merchantId).where('payout_status', '=', 'PENDING').execute();
    const waiting = await trx
      .updateTable('settlements')
      .set({ payout_status: 'PENDING', payout_next_at: now, payout_step_attempts: 0 })
      .where('merchant_id', '=', merchantId)
      .where('payout_status', '=', 'AWAITING_PIX_KEY')
      .returning('id')
      .execute();
    const refused = await trx
      .updateTable('settlements')
      .set((eb) => ({
        payout_status: 'PENDING',
        payout_attempt: eb('payout_attempt', '+', 1),
        payout_key_id: null,
        payout_idempotency_key: null,
        provider_transaction_id: null,
        payout_next_at: now,
        payout_step_attempts: 0,
      }))
      .where('merchant_id', '=', merchantId)
      .where('payout_status', '=', 'FAILED')
      .where('payout_attempt', '<', MAX_PAYOUT_ATTEMPT)
      .returning('id')
      .execute();
    return [...waiting, ...refused].map((row) => row.id);
  },
};
