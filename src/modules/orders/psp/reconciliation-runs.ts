/**
 * The PIX reconciliation's passes on record (migration 0037): each pass's drift (what it applied
 * that a notification should have) or its error, kept RETENTION_DAYS; the back office lists the
 * last ones (GET /admin/reconciliation/psp-runs).
 */
import type { ColumnType } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { newId } from '../../../lib/ids.ts';

export interface PspReconciliationRunsTable {
  id: string;
  started_at: ColumnType<Date, Date | string, never>;
  finished_at: ColumnType<Date, Date | string, never>;
  charges_applied: number;
  refunds_applied: number;
  payouts_applied: number;
  error: string | null;
}

declare module '../../../db/schema.ts' {
  interface Database {
    psp_reconciliation_runs: PspReconciliationRunsTable;
  }
}

const RETENTION_DAYS = 30;

export interface PspReconciliationRun {
  id: string;
  startedAt: string;
  finishedAt: string;
  chargesApplied: number;
  refundsApplied: number;
  payoutsApplied: number;
  /** What the pass applied in all: each one a notification that never arrived. */
  drift: number;
  error: string | null;
}

export const pspReconciliationRuns = {
  /** Records a pass and drops those past the retention, in one transaction. */
  async record(db: Db, run: { startedAt: Date; finishedAt: Date; chargesApplied: number; refundsApplied: number; payoutsApplied: number; error: string | null }): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('psp_reconciliation_runs')
        .values({ id: newId(), started_at: run.startedAt, finished_at: run.finishedAt, charges_applied: run.chargesApplied, refunds_applied: run.refundsApplied, payouts_applied: run.payoutsApplied, error: run.error })
        .execute();
      await trx.deleteFrom('psp_reconciliation_runs').where('started_at', '<', new Date(run.startedAt.getTime() - RETENTION_DAYS * 86_400_000)).execute();
    });
  },

  async last(db: Db, limit: number): Promise<PspReconciliationRun[]> {
    const rows = await db
      .selectFrom('psp_reconciliation_runs')
      .select(['id', 'started_at', 'finished_at', 'charges_applied', 'refunds_applied', 'payouts_applied', 'error'])
      // Ids are UUIDv7: among passes started at the same instant, the later recorded.
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      startedAt: row.started_at.toISOString(),
      finishedAt: row.finished_at.toISOString(),
      chargesApplied: row.charges_applied,
      refundsApplied: row.refunds_applied,
      payoutsApplied: row.payouts_applied,
      drift: row.charges_applied + row.refunds_applied + row.payouts_applied,
      error: row.error,
    }));
  },
};
