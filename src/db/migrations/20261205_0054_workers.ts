import { type Kysely, sql } from 'kysely';

/**
 * Fast recovery after a worker dies (issue 40, item 7; decision 0037; docs/architecture/background-work.md,
 * "Worker instances and their claims"):
 * - `workers`: one row per live worker instance, its heartbeat written by the database's clock
 *   every second. `lock_key` names the session-level advisory lock the instance holds on its own
 *   connection (PostgreSQL), which the database frees the moment the process dies; `process_token`
 *   names the process (the embedded database has only one). A row is deleted once its instance
 *   is proven dead.
 * - `orders.claimed_by`: the worker instance holding an order's claim (with `claimed_until`). A
 *   claim whose instance is gone or silent is free at once, its lease notwithstanding. No index,
 *   no foreign key: only the claim statement reads it, row by row, for orders it already found due.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workers')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('lock_key', 'serial', (col) => col.notNull().unique())
    .addColumn('process_token', 'text', (col) => col.notNull())
    .addColumn('host', 'text', (col) => col.notNull())
    .addColumn('pid', 'integer', (col) => col.notNull())
    .addColumn('started_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`statement_timestamp()`))
    .addColumn('heartbeat_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`statement_timestamp()`))
    .execute();
  await db.schema.alterTable('orders').addColumn('claimed_by', 'uuid').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('claimed_by').execute();
  await db.schema.dropTable('workers').execute();
}
