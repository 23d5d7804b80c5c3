import { type Kysely, sql } from 'kysely';

/**
 * Managed wallets (DESIGN.md §7): one Ed25519 key per receiver that asked for one and per
 * merchant, the private key sealed (AES-256-GCM under WALLET_KEK, owner id as associated data)
 * with the KEK version that sealed it; and the audit log of every sign request, accepted or not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('managed_wallets')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id').onDelete('cascade'))
    // Null for the merchant's own wallet.
    .addColumn('receiver_id', 'uuid', (col) => col.references('receivers.id').onDelete('cascade'))
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('encrypted_private_key', 'text', (col) => col.notNull())
    .addColumn('key_version', 'integer', (col) => col.notNull().check(sql`key_version > 0`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('managed_wallets_address_key', ['address'])
    .addUniqueConstraint('managed_wallets_receiver_key', ['receiver_id'])
    .execute();
  // One own wallet per merchant: two concurrent first calls insert ON CONFLICT DO NOTHING here.
  await db.schema
    .createIndex('managed_wallets_merchant_own_key')
    .on('managed_wallets')
    .column('merchant_id')
    .unique()
    .where(sql.ref('receiver_id'), 'is', null)
    .execute();

  await db.schema
    .createTable('wallet_sign_requests')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('receiver_id', 'uuid', (col) => col.references('receivers.id').onDelete('cascade'))
    .addColumn('wallet_address', 'text')
    .addColumn('operation', 'text', (col) => col.notNull().check(sql`operation in ('SIGN', 'SIGN_AND_SEND')`))
    .addColumn('outcome', 'text', (col) => col.notNull().check(sql`outcome in ('SIGNED', 'SENT', 'REJECTED', 'FAILED')`))
    // A reason code (e.g. SPONSOR_IN_INSTRUCTION) for REJECTED and FAILED; its message alongside.
    .addColumn('reason', 'text')
    .addColumn('message', 'text')
    // The transaction's first signature (base58) once one exists.
    .addColumn('signature', 'text')
    .addColumn('fee_lamports', 'bigint')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('wallet_sign_requests_reason', sql`(outcome in ('SIGNED', 'SENT')) = (reason is null)`)
    .execute();
  await db.schema.createIndex('wallet_sign_requests_merchant_idx').on('wallet_sign_requests').columns(['merchant_id', 'created_at']).execute();
  await db.schema.createIndex('wallet_sign_requests_receiver_idx').on('wallet_sign_requests').columns(['receiver_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('wallet_sign_requests').execute();
  await db.schema.dropTable('managed_wallets').execute();
}
