import { type Kysely, sql } from 'kysely';

/**
 * Webhook reliability (issue 13): endpoints remember since when they fail and why they were
 * disabled; the claim walks each endpoint's pending deliveries in creation order; retention purges
 * old rows by creation time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    // The first failed attempt after the last success; null while healthy.
    .addColumn('failing_since', 'timestamptz')
    // Why the platform disabled it (410 Gone, failing too long); null when enabled or disabled by the merchant.
    .addColumn('disabled_reason', 'text')
    .execute();
  // The claim: per endpoint, its pending deliveries oldest first (creation order is the delivery order).
  await db.schema
    .createIndex('webhook_deliveries_endpoint_queue_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at', 'id'])
    .where(sql.ref('status'), '=', 'PENDING')
    .execute();
  // Retention: finished deliveries by age.
  await db.schema
    .createIndex('webhook_deliveries_finished_created_idx')
    .on('webhook_deliveries')
    .column('updated_at')
    .where(sql.ref('status'), '<>', 'PENDING')
    .execute();
  // Retention: events by age.
  await db.schema.createIndex('events_created_idx').on('events').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_created_idx').execute();
  await db.schema.dropIndex('webhook_deliveries_finished_created_idx').execute();
  await db.schema.dropIndex('webhook_deliveries_endpoint_queue_idx').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('disabled_reason').dropColumn('failing_since').execute();
}
