import { type Kysely, sql } from 'kysely';

/**
 * Standing deposit addresses (issue 43, item 1; docs/decisions/0046-standing-addresses-hold-over-limit-deposits.md):
 * a receiver's permanent Solana address, bound to a PIX key of the receiver's, whose key is a
 * `deposit_addresses` row with reference `standing:<id>` (made like a PAYOUT's, never reused:
 * `deposit_address` unique here and `owner_address` unique there).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('standing_deposit_addresses')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('receiver_id', 'uuid', (col) => col.notNull().references('receivers.id'))
    .addColumn('chain', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('deposit_address', 'text', (col) => col.notNull().unique())
    .addColumn('pix_key', 'text', (col) => col.notNull())
    .addColumn('pix_key_type', 'text', (col) => col.notNull())
    .addColumn('recipient_name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('ACTIVE').check(sql`status in ('ACTIVE', 'DISABLED')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('disabled_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('standing_deposit_addresses_receiver_idx').on('standing_deposit_addresses').columns(['merchant_id', 'receiver_id', 'created_at']).execute();
  // Each deposit credited to one, once by signature: PENDING until its PAYOUT is made (ORDERED), or held for review.
  await db.schema
    .createTable('standing_address_deposits')
    .addColumn('signature', 'text', (col) => col.primaryKey())
    .addColumn('standing_address_id', 'uuid', (col) => col.notNull().references('standing_deposit_addresses.id'))
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('amount_token', 'numeric(38, 18)', (col) => col.notNull().check(sql`amount_token > 0`))
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('PENDING', 'ORDERED', 'HELD_BELOW_MINIMUM', 'HELD_OVER_LIMIT')`))
    .addColumn('hold_reason', 'text')
    .addColumn('order_id', 'uuid', (col) => col.references('orders.id'))
    .addColumn('detected_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('standing_address_deposits_address_idx').on('standing_address_deposits').columns(['standing_address_id', 'detected_at']).execute();
  await sql`create index standing_address_deposits_pending_idx on standing_address_deposits (detected_at) where status = 'PENDING'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('standing_address_deposits').execute();
  await db.schema.dropTable('standing_deposit_addresses').execute();
}
