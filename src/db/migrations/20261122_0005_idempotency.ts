import { type Kysely, sql } from 'kysely';

/**
 * Idempotency keys (DESIGN.md §4): one row per (merchant, key). The insert is the lock; the row
 * then holds the stored answer. Rows are purged by the worker after IDEMPOTENCY_KEY_TTL_HOURS.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id').onDelete('cascade'))
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('fingerprint', 'text', (col) => col.notNull())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('route', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('IN_PROGRESS', 'COMPLETED')`))
    .addColumn('lock_token', 'uuid', (col) => col.notNull())
    .addColumn('locked_at', 'timestamptz', (col) => col.notNull())
    .addColumn('request_id', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('response_content_type', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['merchant_id', 'key'])
    .addCheckConstraint(
      'idempotency_keys_completed_has_response',
      sql`state <> 'COMPLETED' or (response_status is not null and response_body is not null and completed_at is not null)`,
    )
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
