import { type Kysely, sql } from 'kysely';

/**
 * The double-entry ledger: accounts, append-only entries with their postings (debits positive,
 * credits negative, summing to zero per currency — enforced at commit by a constraint trigger),
 * settlements and the entries each settled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('code', 'text', (col) => col.notNull())
    // null for the platform's own accounts
    .addColumn('merchant_id', 'uuid', (col) => col.references('merchants.id'))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index ledger_accounts_key on ledger_accounts (code, coalesce(merchant_id, '00000000-0000-0000-0000-000000000000'::uuid), currency)`.execute(db);

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('reference_type', 'text', (col) => col.notNull().check(sql`reference_type in ('order', 'settlement', 'entry')`))
    .addColumn('reference_id', 'uuid', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    // The same movement can never post twice.
    .addUniqueConstraint('ledger_entries_reference_kind_key', ['reference_type', 'reference_id', 'kind'])
    .execute();
  await sql`create index ledger_entries_merchant_created_idx on ledger_entries (merchant_id, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('ledger_postings')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('entry_id', 'uuid', (col) => col.notNull().references('ledger_entries.id'))
    .addColumn('account_id', 'uuid', (col) => col.notNull().references('ledger_accounts.id'))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('amount', 'numeric(30, 9)', (col) => col.notNull().check(sql`amount <> 0`))
    .execute();
  await db.schema.createIndex('ledger_postings_entry_idx').on('ledger_postings').column('entry_id').execute();
  await db.schema.createIndex('ledger_postings_account_idx').on('ledger_postings').column('account_id').execute();

  // Zero-sum per entry and currency, checked when the transaction commits (all postings are in by then).
  await sql`
    create function ledger_check_entry_balanced() returns trigger language plpgsql as $$
    begin
      if exists (
        select 1 from ledger_postings where entry_id = new.entry_id group by currency having sum(amount) <> 0
      ) then
        raise exception 'ledger entry % does not sum to zero per currency', new.entry_id using errcode = '23514';
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger ledger_postings_balanced after insert on ledger_postings
    deferrable initially deferred for each row execute function ledger_check_entry_balanced()`.execute(db);

  // Append-only: corrections are reversal entries, never updates or deletes.
  await sql`
    create function ledger_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'the ledger is append-only: % on % refused', tg_op, tg_table_name using errcode = '42501';
    end $$`.execute(db);
  for (const table of ['ledger_entries', 'ledger_postings']) {
    await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)} for each row execute function ledger_refuse_change()`.execute(db);
  }

  await db.schema
    .createTable('settlements')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('period_start', 'timestamptz', (col) => col.notNull())
    .addColumn('period_end', 'timestamptz', (col) => col.notNull())
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`amount_brl >= 0`))
    .addColumn('entries_count', 'integer', (col) => col.notNull().check(sql`entries_count > 0`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addUniqueConstraint('settlements_merchant_period_key', ['merchant_id', 'period_start'])
    .addCheckConstraint('settlements_period_check', sql`period_end > period_start`)
    .execute();
  await sql`create index settlements_merchant_created_idx on settlements (merchant_id, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('settled_entries')
    .addColumn('entry_id', 'uuid', (col) => col.primaryKey().references('ledger_entries.id'))
    .addColumn('settlement_id', 'uuid', (col) => col.notNull().references('settlements.id'))
    .execute();
  await db.schema.createIndex('settled_entries_settlement_idx').on('settled_entries').column('settlement_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('settled_entries').execute();
  await db.schema.dropTable('settlements').execute();
  await db.schema.dropTable('ledger_postings').execute();
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('ledger_accounts').execute();
  await sql`drop function ledger_check_entry_balanced()`.execute(db);
  await sql`drop function ledger_refuse_change()`.execute(db);
}
