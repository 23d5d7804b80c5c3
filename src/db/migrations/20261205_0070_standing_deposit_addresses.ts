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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('standing_deposit_addresses').execute();
}
