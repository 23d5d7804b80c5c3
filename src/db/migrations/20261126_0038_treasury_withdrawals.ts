import { type Kysely, sql } from 'kysely';

/**
 * Treasury withdrawals (issue 29, four-eyes TREASURY_WITHDRAWAL, docs/architecture/back-office.md):
 * what two operators agreed was moved out of the treasury, once per reference (e.g. the outgoing
 * transfer's signature), posting treasury_capital +X / token_treasury −X so the books follow the
 * chain instead of showing it as drift. `approval_id` names the decision that recorded it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('treasury_withdrawals')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('reference', 'text', (col) => col.notNull().unique())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('amount', 'numeric(30, 9)', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('note', 'text')
    .addColumn('approval_id', 'uuid', (col) => col.notNull().references('approvals.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request', 'treasury_funding', 'treasury_withdrawal'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request', 'treasury_funding'))`.execute(db);
  await db.schema.dropTable('treasury_withdrawals').execute();
}
