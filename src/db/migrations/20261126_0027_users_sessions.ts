import { type Kysely, sql } from 'kysely';

/**
 * People and sessions (issue 28 item 1, docs/architecture/people-and-sessions.md). A user belongs to
 * one merchant with a role; `email` is stored lowercased, unique across merchants (one sign-in
 * names one person). `password_hash` is an Argon2id PHC string; `totp_secret_sealed` is the TOTP
 * secret sealed under a key derived from WEBHOOK_SECRET_KEY (the user id as associated data),
 * `totp_enabled_at` set once a code confirmed it. `failed_sign_ins` and `locked_until` are the
 * per-account back-off. A session row is found by the SHA-256 of its random id (the cookie's
 * value is never stored); `last_seen_at` drives the idle expiry, `expires_at` is the absolute one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('email', 'text', (col) => col.notNull().unique().check(sql`email = lower(email)`))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('OWNER', 'ADMIN', 'DEVELOPER', 'VIEWER')`))
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('totp_secret_sealed', 'text')
    .addColumn('totp_enabled_at', 'timestamptz')
    .addColumn('failed_sign_ins', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index users_merchant_idx on users (merchant_id, created_at)`.execute(db);
  await db.schema
    .createTable('user_sessions')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await sql`create index user_sessions_user_idx on user_sessions (user_id, created_at) where revoked_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_sessions').execute();
  await db.schema.dropTable('users').execute();
}
