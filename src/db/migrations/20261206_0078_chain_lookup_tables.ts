import { type Kysely, sql } from 'kysely';

/**
 * The treasury's address lookup tables (decision 0056). `chain_lookup_tables`: each table and the
 * addresses it holds as the chain finalized them (the batch preparer loads only those).
 * `chain_lookup_table_extensions`: each transaction that appends to a table (creating it first when
 * `creates`), stored signed before its first send, as the PAYIN batches are; at most one PENDING
 * at a time (two workers never append at once, so a table's positions are those the chain gives
 * the one extension in flight). Its fee and rent are a ledger entry referencing it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chain_lookup_tables')
    .addColumn('address', 'text', (col) => col.primaryKey())
    .addColumn('authority', 'text', (col) => col.notNull())
    .addColumn('addresses', sql`text[]`, (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('chain_lookup_table_extensions')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('table_address', 'text', (col) => col.notNull())
    .addColumn('creates', 'boolean', (col) => col.notNull())
    .addColumn('addresses', sql`text[]`, (col) => col.notNull())
    .addColumn('tx_hash', 'text', (col) => col.notNull().unique())
    .addColumn('wire', 'text', (col) => col.notNull())
    .addColumn('last_valid_block_height', 'bigint', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('PENDING', 'CONFIRMED', 'FAILED', 'EXPIRED')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('settled_at', 'timestamptz')
    .execute();
  await sql`create unique index chain_lookup_table_extensions_one_pending on chain_lookup_table_extensions ((true)) where status = 'PENDING'`.execute(db);

  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`
    alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request', 'treasury_funding', 'treasury_withdrawal', 'dispute', 'payout_batch', 'lookup_table_extension'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`
    alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request', 'treasury_funding', 'treasury_withdrawal', 'dispute', 'payout_batch'))`.execute(db);
  await db.schema.dropTable('chain_lookup_table_extensions').execute();
  await db.schema.dropTable('chain_lookup_tables').execute();
}
