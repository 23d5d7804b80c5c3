import type { Kysely } from 'kysely';

/**
 * `unproven_wallet_daily_usage` (issue 38 item 7, docs/architecture/compliance-policies.md): under
 * the LIMITED wallet ownership policy, what a merchant's PAYINs to one wallet not proven the
 * receiver's have reserved on one São Paulo day. The cap is the day's total per wallet, not one
 * order's, so splitting a large amount into small orders no longer passes it. Reserved in the
 * order's creation transaction by a guarded upsert, as `receiver_daily_usage` is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('unproven_wallet_daily_usage')
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('wallet_address', 'text', (col) => col.notNull())
    .addColumn('day', 'date', (col) => col.notNull())
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.notNull())
    .addPrimaryKeyConstraint('unproven_wallet_daily_usage_pkey', ['merchant_id', 'wallet_address', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('unproven_wallet_daily_usage').execute();
}
