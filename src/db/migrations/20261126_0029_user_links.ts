import { type Kysely, sql } from 'kysely';

/**
 * Links sent by email (docs/architecture/people-and-sessions.md#links-by-email): password resets
 * and invitations. Each is found by the SHA-256 of its random token (the link's secret is never
 * stored), expires at `expires_at` and is spent once (`used_at`). An invitation names the merchant,
 * role and email of the user its acceptance creates, and who invited.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`create index password_resets_user_idx on password_resets (user_id, created_at)`.execute(db);
  await db.schema
    .createTable('user_invitations')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('email', 'text', (col) => col.notNull().check(sql`email = lower(email)`))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('OWNER', 'ADMIN', 'DEVELOPER', 'VIEWER')`))
    .addColumn('invited_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_invitations').execute();
  await db.schema.dropTable('password_resets').execute();
}
