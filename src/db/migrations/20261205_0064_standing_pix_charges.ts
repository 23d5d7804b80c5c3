import { type Kysely, sql } from 'kysely';

/**
 * Standing PIX charges (issue 43, item 2; docs/decisions/0045-standing-pix-charges.md): a static
 * BR Code on the platform's key carrying the charge's own txid (at most 25 alphanumerics, so it
 * never equals a `cob` txid of 26 to 35), bound to a receiver's wallet, open or fixed amount.
 * Every PIX paid to it makes a PAYIN (orders.source_kind STANDING_PIX_CHARGE, source_id the charge):
 * at most one order per endToEndId and charge, by the unique partial index on orders.
 * `sandbox_pix_received`: the PIX the sandbox PSP received on static codes, many per txid
 * (a `cob` is paid once, so those stay on sandbox_pix_charges); a refund's PIX is on either table,
 * so its foreign key to sandbox_pix_charges goes (the sandbox PSP finds the PIX under lock first).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('standing_pix_charges')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('receiver_id', 'uuid', (col) => col.notNull().references('receivers.id'))
    .addColumn('txid', 'text', (col) => col.notNull().unique().check(sql`txid ~ '^[A-Za-z0-9]{1,25}$'`))
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.check(sql`amount_brl > 0`))
    .addColumn('chain', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('destination_wallet', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('pix_copia_e_cola', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('ACTIVE').check(sql`status in ('ACTIVE', 'DISABLED')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('disabled_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('standing_pix_charges_receiver_idx').on('standing_pix_charges').columns(['merchant_id', 'receiver_id', 'created_at']).execute();
  await sql`create unique index orders_standing_pix_payment_idx on orders (source_id, pix_end_to_end_id) where source_kind = 'STANDING_PIX_CHARGE'`.execute(db);
  await db.schema
    .createTable('sandbox_pix_received')
    .addColumn('end_to_end_id', 'text', (col) => col.primaryKey())
    .addColumn('txid', 'text', (col) => col.notNull())
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`amount_brl > 0`))
    .addColumn('paid_at', 'timestamptz', (col) => col.notNull())
    .addColumn('payer_document_type', 'text', (col) => col.check(sql`payer_document_type in ('CPF', 'CNPJ')`))
    .addColumn('payer_document', 'text')
    .addColumn('payer_name', 'text')
    .execute();
  await db.schema.createIndex('sandbox_pix_received_paid_at_idx').on('sandbox_pix_received').column('paid_at').execute();
  await sql`alter table sandbox_pix_refunds drop constraint sandbox_pix_refunds_end_to_end_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sandbox_pix_refunds r where not exists (select 1 from sandbox_pix_charges c where c.end_to_end_id = r.end_to_end_id)`.execute(db);
  await sql`alter table sandbox_pix_refunds add constraint sandbox_pix_refunds_end_to_end_id_fkey foreign key (end_to_end_id) references sandbox_pix_charges (end_to_end_id)`.execute(db);
  await db.schema.dropTable('sandbox_pix_received').execute();
  await sql`drop index orders_standing_pix_payment_idx`.execute(db);
  await db.schema.dropTable('standing_pix_charges').execute();
}
