import { type Kysely, sql } from 'kysely';

/**
 * The treasury (issue 26, item 3). `treasury_fundings`: each operator's funding of the treasury,
 * once per reference (the funding transaction's signature); it posts token_treasury +X /
 * treasury_capital −X, an entry of no merchant, so ledger entries may now have none and may
 * reference a funding. `treasury_reconciliation_runs` and `treasury_reconciliation_balances`:
 * each reconciliation of the on-chain balances with the ledger, and per currency what it read.
 * `orders_open_payins_idx`: the open PAYINs whose tokens the liquidity check subtracts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('treasury_fundings')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('reference', 'text', (col) => col.notNull().unique())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('amount', 'numeric(30, 9)', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('note', 'text')
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('treasury_reconciliation_runs')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('started_at', 'timestamptz', (col) => col.notNull())
    .addColumn('finished_at', 'timestamptz', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    // PAYINs whose transfer was sent and not yet COMPLETED: their tokens may have left the chain
    // balance while the ledger still holds them (transient drift).
    .addColumn('in_flight_transfers', 'integer', (col) => col.notNull())
    .addColumn('drift_found', 'boolean', (col) => col.notNull())
    .execute();
  await sql`create index treasury_reconciliation_runs_started_idx on treasury_reconciliation_runs (started_at desc)`.execute(db);

  await db.schema
    .createTable('treasury_reconciliation_balances')
    .addColumn('run_id', 'uuid', (col) => col.notNull().references('treasury_reconciliation_runs.id').onDelete('cascade'))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('on_chain', 'numeric(30, 9)', (col) => col.notNull())
    .addColumn('ledger', 'numeric(30, 9)', (col) => col.notNull())
    // on_chain − ledger
    .addColumn('drift', 'numeric(30, 9)', (col) => col.notNull())
    .addColumn('in_flight_amount', 'numeric(30, 9)', (col) => col.notNull())
    .addPrimaryKeyConstraint('treasury_reconciliation_balances_pkey', ['run_id', 'currency'])
    .execute();

  // What open PAYINs owe, per token (treasury/repo.ts `openPayins`, every few seconds per process):
  // the few open PAYINs among millions of orders, their statuses named as the query's literals.
  await sql`
    create index orders_open_payins_idx on orders (token, status) include (amount_token)
    where type = 'PAYIN' and status in ('AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING')`.execute(db);

  await sql`alter table ledger_entries alter column merchant_id drop not null`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`
    alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request', 'treasury_funding'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`
    alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request'))`.execute(db);
  // Refused, as the constraint above, once a funding has posted: entries are never deleted.
  await sql`alter table ledger_entries alter column merchant_id set not null`.execute(db);
  await sql`drop index orders_open_payins_idx`.execute(db);
  await db.schema.dropTable('treasury_reconciliation_balances').execute();
  await db.schema.dropTable('treasury_reconciliation_runs').execute();
  await db.schema.dropTable('treasury_fundings').execute();
}
