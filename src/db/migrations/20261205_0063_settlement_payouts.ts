import { type Kysely, sql } from 'kysely';

/**
 * Settlements paid by PIX (brief settle-pix, docs/decisions/0044-settlements-paid-by-pix-to-a-key-two-approved.md):
 *
 * - `settlement_pix_keys`: where a merchant's settlements are paid, one row per key an operator
 *   asked for (PENDING), ACTIVE once a second operator approved SETTLEMENT_PIX_KEY (the approval
 *   named in `approval_id`), SUPERSEDED when a later key is approved. At most one ACTIVE per
 *   merchant. The key and its holder's document are personal data, sealed (decision 0026), so the
 *   sealing marker's trigger (migration 0052) watches them too.
 * - `settlements` gain the payment: `payout_status` (AWAITING_PIX_KEY, PENDING, SENDING, SENT,
 *   PAID, FAILED), the key it is paid to, the PSP idempotency key stored before the call, the PSP's
 *   transaction id and endToEndId, when it was paid, why it failed, and `payout_next_at` (due for
 *   the worker). Settlements made before this migration were never paid and no key exists yet:
 *   they wait for their merchant's key (AWAITING_PIX_KEY), owed, not lost.
 */
const STATUSES = `'AWAITING_PIX_KEY', 'PENDING', 'SENDING', 'SENT', 'PAID', 'FAILED'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('settlement_pix_keys')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('pix_key_type', 'text', (col) => col.notNull().check(sql`pix_key_type in ('CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP')`))
    .addColumn('pix_key', 'text', (col) => col.notNull())
    .addColumn('holder_document', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('PENDING').check(sql`status in ('PENDING', 'ACTIVE', 'SUPERSEDED')`))
    .addColumn('requested_by', 'uuid', (col) => col.notNull().references('operators.id'))
    .addColumn('requested_at', 'timestamptz', (col) => col.notNull())
    .addColumn('approval_id', 'uuid', (col) => col.references('approvals.id'))
    .addColumn('activated_at', 'timestamptz')
    .addCheckConstraint('settlement_pix_keys_approved', sql`(status = 'PENDING') = (approval_id is null)`)
    .execute();
  await sql`create unique index settlement_pix_keys_one_active_idx on settlement_pix_keys (merchant_id) where status = 'ACTIVE'`.execute(db);
  await sql`create trigger settlement_pix_keys_personal_data_clear after insert or update of pix_key, holder_document on settlement_pix_keys
    for each row when ((new.pix_key is not null and new.pix_key !~ '^pd[0-9]+:') or (new.holder_document is not null and new.holder_document !~ '^pd[0-9]+:'))
    execute function personal_data_clear_write()`.execute(db);

  await db.schema
    .alterTable('settlements')
    .addColumn('payout_status', 'text', (col) => col.notNull().defaultTo('AWAITING_PIX_KEY').check(sql.raw(`payout_status in (${STATUSES})`)))
    .addColumn('payout_key_id', 'uuid', (col) => col.references('settlement_pix_keys.id'))
    .addColumn('payout_attempt', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('payout_idempotency_key', 'text')
    .addColumn('provider_transaction_id', 'text')
    .addColumn('pix_end_to_end_id', 'text')
    .addColumn('paid_at', 'timestamptz')
    .addColumn('payout_failure_reason', 'text')
    .addColumn('payout_next_at', 'timestamptz')
    .addColumn('payout_step_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`alter table settlements add constraint settlements_paid_with_reference check ((payout_status = 'PAID') = (pix_end_to_end_id is not null and paid_at is not null))`.execute(db);
  await sql`create unique index settlements_provider_transaction_idx on settlements (provider_transaction_id) where provider_transaction_id is not null`.execute(db);
  await sql`create index settlements_payout_due_idx on settlements (payout_next_at) where payout_next_at is not null`.execute(db);
  await sql`create index settlements_merchant_payout_status_idx on settlements (merchant_id, payout_status) where payout_status in ('AWAITING_PIX_KEY', 'FAILED')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index settlements_merchant_payout_status_idx`.execute(db);
  await sql`drop index settlements_payout_due_idx`.execute(db);
  await sql`drop index settlements_provider_transaction_idx`.execute(db);
  await sql`alter table settlements drop constraint settlements_paid_with_reference`.execute(db);
  await db.schema
    .alterTable('settlements')
    .dropColumn('payout_step_attempts')
    .dropColumn('payout_next_at')
    .dropColumn('payout_failure_reason')
    .dropColumn('paid_at')
    .dropColumn('pix_end_to_end_id')
    .dropColumn('provider_transaction_id')
    .dropColumn('payout_idempotency_key')
    .dropColumn('payout_attempt')
    .dropColumn('payout_key_id')
    .dropColumn('payout_status')
    .execute();
  await db.schema.dropTable('settlement_pix_keys').execute();
}
