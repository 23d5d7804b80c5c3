import { type Kysely, sql } from 'kysely';

/**
 * The platform's own keys (docs/architecture/keys.md): one row per purpose, the treasury that
 * sends PAYIN tokens and the sponsor that pays managed wallets' fees. Sealed like managed wallets'
 * keys (AES-256-GCM under WALLET_KEK, the purpose as associated data) with the KEK version that
 * sealed them; updated_at moves when `admin rotate-kek` re-seals one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('platform_keys')
    .addColumn('purpose', 'text', (col) => col.primaryKey().check(sql`purpose in ('TREASURY', 'SPONSOR')`))
    .addColumn('address', 'text', (col) => col.notNull().unique())
    .addColumn('encrypted_private_key', 'text', (col) => col.notNull())
    .addColumn('key_version', 'integer', (col) => col.notNull().check(sql`key_version > 0`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('platform_keys').execute();
}
