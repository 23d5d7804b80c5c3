import { type Kysely, sql } from 'kysely';

/**
 * Payout batches (issue 43 item 3, docs/architecture/payout-batches.md): a batch of up to 1,000
 * PAYOUT lines validated before anything moves, approved by a second person of the merchant
 * above its threshold, funded by one deposit to one address, each valid line then paid as its own
 * order (orders.source_kind PAYOUT_BATCH). The ledger learns a batch reference: the batch's
 * deposit is held for the merchant (deposits_to_return) until each line's order takes its share.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payout_batches')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('VALIDATED', 'AWAITING_APPROVAL', 'AWAITING_FUNDING', 'PAYING', 'PAUSED', 'COMPLETED', 'CANCELLED', 'EXPIRED')`),
    )
    .addColumn('chain', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('item_count', 'integer', (col) => col.notNull())
    .addColumn('valid_count', 'integer', (col) => col.notNull())
    .addColumn('total_token', 'numeric', (col) => col.notNull())
    .addColumn('total_brl', 'numeric(20, 2)', (col) => col.notNull())
    .addColumn('total_net_brl', 'numeric(20, 2)', (col) => col.notNull())
    .addColumn('rate_expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('created_by_user_id', 'uuid')
    .addColumn('created_by_credential_id', 'text', (col) => col.notNull())
    .addColumn('approval_required', 'boolean')
    .addColumn('approved_by_user_id', 'uuid')
    .addColumn('approved_at', 'timestamptz')
    .addColumn('deposit_address', 'text', (col) => col.unique())
    .addColumn('funded_amount_token', 'numeric')
    .addColumn('funded_tx_hash', 'text')
    .addColumn('funded_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payout_batches_merchant_idx').on('payout_batches').columns(['merchant_id', 'created_at']).execute();
  await sql`create index payout_batches_paying_idx on payout_batches (updated_at) where status = 'PAYING'`.execute(db);

  await db.schema
    .createTable('payout_batch_items')
    .addColumn('batch_id', 'uuid', (col) => col.notNull().references('payout_batches.id'))
    .addColumn('line', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('VALID', 'INVALID', 'ORDERED', 'REFUSED', 'CANCELLED')`))
    .addColumn('receiver_id', 'text')
    .addColumn('external_id', 'text')
    .addColumn('amount_token', 'text')
    .addColumn('pix_key', 'text')
    .addColumn('pix_key_type', 'text')
    .addColumn('recipient_name', 'text')
    .addColumn('price', 'jsonb')
    .addColumn('errors', 'jsonb')
    .addColumn('order_id', 'uuid', (col) => col.references('orders.id'))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('payout_batch_items_pkey', ['batch_id', 'line'])
    .execute();
  await sql`create index payout_batch_items_valid_idx on payout_batch_items (batch_id, line) where status = 'VALID'`.execute(db);

  await db.schema
    .createTable('payout_batch_settings')
    .addColumn('merchant_id', 'uuid', (col) => col.primaryKey().references('merchants.id'))
    .addColumn('approval_threshold_brl', 'numeric(20, 2)')
    .addColumn('updated_by_user_id', 'uuid', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`
    alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request', 'treasury_funding', 'treasury_withdrawal', 'dispute', 'payout_batch'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`
    alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request', 'treasury_funding', 'treasury_withdrawal', 'dispute'))`.execute(db);
  await db.schema.dropTable('payout_batch_settings').execute();
  await db.schema.dropTable('payout_batch_items').execute();
  await db.schema.dropTable('payout_batches').execute();
}
