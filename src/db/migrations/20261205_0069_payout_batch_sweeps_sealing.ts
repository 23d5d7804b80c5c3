import { type Kysely, sql } from 'kysely';

/**
 * Payout batches' loose ends (docs/architecture/payout-batches.md):
 * - a batch's deposit swept to the treasury as an order's (migration 0026): a sweep belongs to an
 *   order or to a batch, exactly one of them. Its amount is what funded the batch
 *   (`payout_batches.funded_amount_token`), one sweep per address as before;
 * - a batch line's sealed PIX key and recipient name join the sealing marker's watch (migration
 *   0052): a clear value written into them voids the marker, as for orders' same columns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deposit_sweeps').alterColumn('order_id', (col) => col.dropNotNull()).execute();
  await db.schema.alterTable('deposit_sweeps').addColumn('payout_batch_id', 'uuid', (col) => col.references('payout_batches.id')).execute();
  await sql`alter table deposit_sweeps add constraint deposit_sweeps_one_owner check ((order_id is null) <> (payout_batch_id is null))`.execute(db);
  await sql`create trigger payout_batch_items_personal_data_clear after insert or update of pix_key, recipient_name on payout_batch_items
    for each row when ((new.pix_key is not null and new.pix_key !~ '^pd[0-9]+:') or (new.recipient_name is not null and new.recipient_name !~ '^pd[0-9]+:'))
    execute function personal_data_clear_write()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger payout_batch_items_personal_data_clear on payout_batch_items`.execute(db);
  await sql`delete from deposit_sweeps where payout_batch_id is not null`.execute(db);
  await sql`alter table deposit_sweeps drop constraint deposit_sweeps_one_owner`.execute(db);
  await db.schema.alterTable('deposit_sweeps').dropColumn('payout_batch_id').execute();
  await db.schema.alterTable('deposit_sweeps').alterColumn('order_id', (col) => col.setNotNull()).execute();
}
