import { type Kysely, sql } from 'kysely';

/**
 * Crash-safe idempotency (issue 14, docs/architecture/idempotency.md):
 * - `idempotency_owners`: one row per live API process, its heartbeat written by the database's
 *   clock every second; a key whose owner stopped beating is taken over after a few seconds
 *   instead of after a 60 s lease.
 * - `idempotency_keys.owner_id`: the process holding an IN_PROGRESS key.
 * - `idempotency_keys.effect`: what a request whose effect cannot be rolled back (a broadcast
 *   transaction) recorded before making it, so a retry finishes it instead of repeating it.
 * - the foreign key to merchants is dropped: admin requests keep their keys under the nil UUID.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_owners')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('heartbeat_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .alterTable('idempotency_keys')
    .addColumn('owner_id', 'uuid')
    .addColumn('effect', 'text')
    .execute();
  await sql`alter table idempotency_keys drop constraint if exists idempotency_keys_merchant_id_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('owner_id').dropColumn('effect').execute();
  await db.schema.dropTable('idempotency_owners').execute();
}
