import { type Kysely, sql } from 'kysely';

/**
 * Sandbox failure injection and dynamic BR Codes (issue 15, docs/architecture/pix-provider.md "The sandbox PSP"):
 * - `sandbox_chain_armed_failures`: the transfer made under this idempotency key (an order's id)
 *   lands FAILED. Keyed by the order, not by the destination as `sandbox_chain_transfer_failures`
 *   is: every order of a receiver pays the same wallet.
 * - `sandbox_pix_armed_failures`: the payout sent under this idempotency key (an order's id) is
 *   refused, or the refund of the PIX that paid this charge (txid) is NAO_REALIZADO, when the
 *   sandbox bank settles it.
 * - `sandbox_pix_charges.reference` goes and `location` comes: charges now carry dynamic codes
 *   (26/25 the location, 62/05 `***`, the full txid in the payload served at the location), so the
 *   25-character prefix a static code held no longer names a charge. Rows from before keep a null
 *   location (their static codes still pay by txid).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_chain_armed_failures')
    .addColumn('idempotency_key', 'text', (col) => col.primaryKey())
    .addColumn('error', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('sandbox_pix_armed_failures')
    .addColumn('operation', 'text', (col) => col.notNull().check(sql`operation in ('PAYOUT', 'REFUND')`))
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('sandbox_pix_armed_failures_pkey', ['operation', 'key'])
    .execute();
  await db.schema.alterTable('sandbox_pix_charges').dropColumn('reference').execute();
  await db.schema.alterTable('sandbox_pix_charges').addColumn('location', 'text').execute();
  await sql`alter table sandbox_pix_charges add constraint sandbox_pix_charges_location_key unique (location)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sandbox_pix_charges').dropColumn('location').execute();
  await db.schema.alterTable('sandbox_pix_charges').addColumn('reference', 'text').execute();
  await sql`update sandbox_pix_charges set reference = left(txid, 25)`.execute(db);
  await sql`alter table sandbox_pix_charges alter column reference set not null`.execute(db);
  await sql`alter table sandbox_pix_charges add constraint sandbox_pix_charges_reference_key unique (reference)`.execute(db);
  await db.schema.dropTable('sandbox_pix_armed_failures').execute();
  await db.schema.dropTable('sandbox_chain_armed_failures').execute();
}
