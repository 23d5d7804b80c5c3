import { type Kysely, sql } from 'kysely';

/**
 * MED 2.0 fraud claims (issue 30, docs/architecture/disputes.md):
 * - `disputes`: one row per infraction the PSP reported on a PIX we received, with its deadline,
 *   the merchant's defense, what its outcome did (`outcome`) and, for a claim on a COMPLETED
 *   PAYIN, the MED devolução made from the platform's account (`return_id`, `return_status`) and
 *   when the disputes job should look at it next (`next_step_at`).
 * - `orders.dispute_hold`: a PAYIN whose tokens have not left, held by an open claim; the worker's
 *   steps towards the transfer are guarded by it. `orders.refund_nature`: the devolução's natureza
 *   (ORIGINAL, or MED_FRAUDE when an accepted claim returns the PIX).
 * - `sandbox_pix_infractions` and `sandbox_pix_refunds.nature`: the sandbox PSP's side.
 * - ledger entries may reference a dispute (the chargeback and the return it pays).
 */
const DISPUTE_STATUSES = sql.raw(`'OPEN', 'DEFENDED', 'ACCEPTED', 'REJECTED', 'CANCELLED'`);
const NATURES = sql.raw(`'ORIGINAL', 'MED_FRAUDE'`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('disputes')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id'))
    .addColumn('psp_infraction_id', 'text', (col) => col.notNull().unique())
    .addColumn('end_to_end_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in (${DISPUTE_STATUSES})`))
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('amount_brl', 'numeric(20, 2)', (col) => col.notNull().check(sql`amount_brl > 0`))
    .addColumn('reported_at', 'timestamptz', (col) => col.notNull())
    .addColumn('defense_deadline', 'timestamptz', (col) => col.notNull())
    .addColumn('order_held', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('defense', 'jsonb')
    .addColumn('defended_at', 'timestamptz')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('outcome', 'text', (col) => col.check(sql`outcome in ('ORDER_REFUNDED', 'CHARGED_BACK', 'ALREADY_REFUNDED', 'RELEASED', 'NO_EFFECT')`))
    .addColumn('return_id', 'text', (col) => col.unique())
    .addColumn('return_status', 'text', (col) => col.check(sql`return_status in ('PENDING', 'EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO')`))
    .addColumn('next_step_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await sql`create index disputes_merchant_reported_idx on disputes (merchant_id, reported_at desc, id desc)`.execute(db);
  await sql`create index disputes_order_idx on disputes (order_id)`.execute(db);
  await sql`create index disputes_due_idx on disputes (next_step_at) where next_step_at is not null`.execute(db);
  await sql`create index disputes_unresolved_idx on disputes (reported_at) where status in ('OPEN', 'DEFENDED')`.execute(db);

  await db.schema.alterTable('orders').addColumn('dispute_hold', 'boolean', (col) => col.notNull().defaultTo(false)).execute();
  // A claim names the PIX by its endToEndId: the order it paid is found by it.
  await sql`create index orders_pix_end_to_end_id_idx on orders (pix_end_to_end_id) where pix_end_to_end_id is not null`.execute(db);
  await sql`alter table orders add column refund_nature text not null default 'ORIGINAL' check (refund_nature in (${NATURES}))`.execute(db);

  await sql`alter table sandbox_pix_refunds add column nature text not null default 'ORIGINAL' check (nature in (${NATURES}))`.execute(db);
  await db.schema
    .createTable('sandbox_pix_infractions')
    .addColumn('infraction_id', 'text', (col) => col.primaryKey())
    .addColumn('end_to_end_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('ABERTA', 'EM_DEFESA', 'ACEITA', 'REJEITADA', 'CANCELADA')`))
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('amount_brl', 'numeric(20, 2)', (col) => col.notNull())
    .addColumn('defense_deadline', 'timestamptz', (col) => col.notNull())
    .addColumn('justification', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await sql`create index sandbox_pix_infractions_created_idx on sandbox_pix_infractions (created_at)`.execute(db);

  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request', 'treasury_funding', 'treasury_withdrawal', 'dispute'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_entries drop constraint ledger_entries_reference_type_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_reference_type_check
    check (reference_type in ('order', 'settlement', 'entry', 'wallet_sign_request', 'treasury_funding', 'treasury_withdrawal'))`.execute(db);
  await db.schema.dropTable('sandbox_pix_infractions').execute();
  await db.schema.alterTable('sandbox_pix_refunds').dropColumn('nature').execute();
  await db.schema.alterTable('orders').dropColumn('refund_nature').execute();
  await sql`drop index orders_pix_end_to_end_id_idx`.execute(db);
  await db.schema.alterTable('orders').dropColumn('dispute_hold').execute();
  await db.schema.dropTable('disputes').execute();
}
