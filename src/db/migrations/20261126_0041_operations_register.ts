import { type Kysely, sql } from 'kysely';

/**
 * The operations register (issue 30, docs/architecture/operations-register.md): one row per PIX
 * and on-chain movement of a client order, written in the transition that confirms it, with the
 * client, the wallet and the travel-rule parties as they were at that moment. What the Banco
 * Central's and the Receita Federal's reports are built from.
 *
 * - Once per order and movement (`operations_register_order_movement_key`): a movement recorded
 *   again (a re-delivered notification, a re-run step) inserts nothing.
 * - Append-only, as admin_audit_log (migration 0033): a trigger refuses every UPDATE, DELETE and
 *   TRUNCATE, whoever the caller is. A correction would be a new kind of row, never an edit.
 * - Read by month in São Paulo time: (occurred_at, id) is the export's keyset.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operations_register')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('occurred_at', 'timestamptz', (col) => col.notNull())
    .addColumn('order_id', 'uuid', (col) => col.notNull())
    .addColumn('order_type', 'text', (col) => col.notNull().check(sql`order_type in ('PAYIN', 'PAYOUT')`))
    .addColumn('merchant_id', 'uuid', (col) => col.notNull())
    .addColumn('movement', 'text', (col) => col.notNull().check(sql`movement in ('PIX_IN', 'PIX_REFUND', 'PIX_OUT', 'CHAIN_TRANSFER', 'CHAIN_DEPOSIT')`))
    .addColumn('direction', 'text', (col) => col.notNull().check(sql`direction in ('IN', 'OUT')`))
    .addColumn('asset', 'text', (col) => col.notNull())
    .addColumn('chain', 'text')
    .addColumn('quantity', 'numeric', (col) => col.notNull().check(sql`quantity >= 0`))
    .addColumn('value_brl', 'numeric', (col) => col.notNull().check(sql`value_brl >= 0`))
    .addColumn('client_document_type', 'text', (col) => col.notNull())
    .addColumn('client_document', 'text', (col) => col.notNull())
    .addColumn('client_name', 'text', (col) => col.notNull())
    .addColumn('wallet_address', 'text')
    .addColumn('wallet_self_hosted', 'boolean')
    .addColumn('counterparty_type', 'text', (col) =>
      col.notNull().check(sql`counterparty_type in ('PIX_PAYER', 'PIX_RECIPIENT', 'SELF_HOSTED_WALLET', 'CUSTODIAL_WALLET', 'PLATFORM_DEPOSIT_ADDRESS')`),
    )
    .addColumn('originator_name', 'text')
    .addColumn('originator_document_type', 'text')
    .addColumn('originator_document', 'text')
    .addColumn('originator_account', 'text')
    .addColumn('beneficiary_name', 'text')
    .addColumn('beneficiary_document_type', 'text')
    .addColumn('beneficiary_document', 'text')
    .addColumn('beneficiary_account', 'text')
    .addColumn('pix_end_to_end_id', 'text')
    .addColumn('psp_reference', 'text')
    .addColumn('tx_signature', 'text')
    .addUniqueConstraint('operations_register_order_movement_key', ['order_id', 'movement'])
    .execute();
  await sql`create index operations_register_occurred_idx on operations_register (occurred_at, id)`.execute(db);

  await sql`
    create function operations_register_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'operations_register is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`create trigger operations_register_no_change before update or delete on operations_register for each row execute function operations_register_append_only()`.execute(db);
  await sql`create trigger operations_register_no_truncate before truncate on operations_register for each statement execute function operations_register_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operations_register').execute();
  await sql`drop function operations_register_append_only()`.execute(db);
}
