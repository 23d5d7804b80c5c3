import { type Kysely, sql } from 'kysely';

/**
 * Sponsored fees are bounded and charged (issue 24, finding 4). `sponsor_daily_usage` holds the
 * lamports of fees each merchant's sign-and-send requests reserved per São Paulo day: a send
 * reserves its fee with one guarded upsert, so every process shares the one budget. Each
 * reserved fee is charged to the merchant in the ledger, whose entries may now reference the
 * sign request they charge (`wallet_sign_request`, the id of its `wallet_sign_requests` row).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sponsor_daily_usage')
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('day', 'date', (col) => col.notNull())
    .addColumn('used_lamports', 'bigint', (col) => col.notNull().check(sql`used_lamports >= 0`))
    .addPrimaryKeyConstraint('sponsor_daily_usage_pkey', ['merchant_id', 'day'])
    .execute();

  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`
    alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_reference_type_check check (reference_type in ('order', 'settlement', 'entry'))`.execute(db);
  await db.schema.dropTable('sponsor_daily_usage').execute();
}
