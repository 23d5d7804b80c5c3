import { type Kysely, sql } from 'kysely';

/**
 * Sign-in that holds against replay and targeted lockout (issue 38 items 3 and 4,
 * docs/decisions/0025-single-use-totp-uniform-sign-in-failures-rotating-secrets.md):
 * - `users.totp_last_step`, `operators.totp_last_step`: the last TOTP time step a person used;
 *   a code of that step or an older one is refused (one code, one sign-in).
 * - `sign_in_failures`: failed sign-ins per HMAC(scope, client address, email), so a stranger's
 *   failures from their own address never throttle the victim's; the per-account lockout
 *   columns (`failed_sign_ins`, `locked_until`) go, since anyone could trip them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['users', 'operators']) {
    await db.schema.alterTable(table).addColumn('totp_last_step', 'bigint').execute();
    await db.schema.alterTable(table).dropColumn('failed_sign_ins').execute();
    await db.schema.alterTable(table).dropColumn('locked_until').execute();
  }
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('key_hash', 'text', (col) => col.primaryKey())
    .addColumn('failures', 'integer', (col) => col.notNull().check(sql`failures > 0`))
    .addColumn('blocked_until', 'timestamptz')
    .addColumn('last_failed_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await sql`create index sign_in_failures_last_failed_idx on sign_in_failures (last_failed_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_failures').execute();
  for (const table of ['users', 'operators']) {
    await db.schema.alterTable(table).dropColumn('totp_last_step').execute();
    await db.schema.alterTable(table).addColumn('failed_sign_ins', 'integer', (col) => col.notNull().defaultTo(0)).execute();
    await db.schema.alterTable(table).addColumn('locked_until', 'timestamptz').execute();
  }
}
