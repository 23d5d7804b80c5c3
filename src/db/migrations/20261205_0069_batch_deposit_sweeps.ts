import { type Kysely, sql } from 'kysely';

/**
 * A payout batch's deposit swept to the treasury as an order's (docs/architecture/payout-batches.md
 * "Funding"; migration 0026): a sweep belongs to an order or to a batch, exactly one of them. Its
 * amount is what funded the batch (`payout_batches.funded_amount_token`), one sweep per address as
 * before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deposit_sweeps').alterColumn('order_id', (col) => col.dropNotNull()).execute();
  await db.schema.alterTable('deposit_sweeps').addColumn('payout_batch_id', 'uuid', (col) => col.references('payout_batches.id')).execute();
  await sql`alter table deposit_sweeps add constraint deposit_sweeps_one_owner check ((order_id is null) <> (payout_batch_id is null))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from deposit_sweeps where payout_batch_id is not null`.execute(db);
  await sql`alter table deposit_sweeps drop constraint deposit_sweeps_one_owner`.execute(db);
  await db.schema.alterTable('deposit_sweeps').dropColumn('payout_batch_id').execute();
  await db.schema.alterTable('deposit_sweeps').alterColumn('order_id', (col) => col.setNotNull()).execute();
}
