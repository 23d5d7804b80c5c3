import { type Kysely, sql } from 'kysely';

/**
 * Each pass of the PIX reconciliation (orders/reconciliation.ts) on record, for the back office's
 * treasury page (issue 29: "the last reconciliation runs with PSP and chain and any drift"): what
 * it found that a lost notification should have told (charges, refunds and payouts applied), or
 * the error that stopped it. Kept 30 days (the pass prunes older rows as it records).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('psp_reconciliation_runs')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('started_at', 'timestamptz', (col) => col.notNull())
    .addColumn('finished_at', 'timestamptz', (col) => col.notNull())
    .addColumn('charges_applied', 'integer', (col) => col.notNull())
    .addColumn('refunds_applied', 'integer', (col) => col.notNull())
    .addColumn('payouts_applied', 'integer', (col) => col.notNull())
    .addColumn('error', 'text')
    .execute();
  await sql`create index psp_reconciliation_runs_started_idx on psp_reconciliation_runs (started_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('psp_reconciliation_runs').execute();
}
