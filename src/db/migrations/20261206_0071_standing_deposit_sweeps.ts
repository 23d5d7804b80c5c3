import { type Kysely, sql } from 'kysely';

/**
 * Standing addresses' deposits swept to the treasury (decision 0049): a standing address takes
 * deposit after deposit, each its own PAYOUT, so it has a sweep per credited deposit, not one per
 * address. A sweep names the deposit it moves (`standing_deposit_signature`; its `order_id` is
 * that deposit's PAYOUT, so its costs post against the order as any PAYOUT's). The key on
 * `deposit_address` becomes:
 * - one sweep per address for the others (an order's, a payout batch's), as before;
 * - one per standing deposit;
 * - at most one PENDING per address: two transactions moving tokens out of one account at once
 *   would race on its balance (the later one refused, or expired for nothing), so a standing
 *   address's deposits are swept one after the other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('deposit_sweeps')
    .addColumn('standing_deposit_signature', 'text', (col) => col.references('standing_address_deposits.signature'))
    .execute();
  await sql`alter table deposit_sweeps add constraint deposit_sweeps_standing_order check (standing_deposit_signature is null or order_id is not null)`.execute(db);
  await sql`alter table deposit_sweeps drop constraint deposit_sweeps_pkey`.execute(db);
  await sql`create unique index deposit_sweeps_address_idx on deposit_sweeps (deposit_address) where standing_deposit_signature is null`.execute(db);
  await sql`create unique index deposit_sweeps_standing_deposit_idx on deposit_sweeps (standing_deposit_signature) where standing_deposit_signature is not null`.execute(db);
  await sql`create unique index deposit_sweeps_one_pending_idx on deposit_sweeps (deposit_address) where status = 'PENDING'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from deposit_sweeps where standing_deposit_signature is not null`.execute(db);
  await sql`drop index deposit_sweeps_one_pending_idx`.execute(db);
  await sql`drop index deposit_sweeps_standing_deposit_idx`.execute(db);
  await sql`drop index deposit_sweeps_address_idx`.execute(db);
  await sql`alter table deposit_sweeps add primary key (deposit_address)`.execute(db);
  await sql`alter table deposit_sweeps drop constraint deposit_sweeps_standing_order`.execute(db);
  await db.schema.alterTable('deposit_sweeps').dropColumn('standing_deposit_signature').execute();
}
