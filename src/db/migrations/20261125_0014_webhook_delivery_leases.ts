import { type Kysely, sql } from 'kysely';

/**
 * A delivery's lease moves out of `webhook_deliveries` into its own small table (issue 13,
 * docs/architecture/webhooks.md "Claims and leases"). The lease lived in `claimed_until`, which
 * `webhook_deliveries_endpoint_pending_idx` indexed, so every claim rewrote each claimed row with
 * a new entry in all seven of the table's indexes; under a backlog that index work was most of a
 * claim's time. Now a claim inserts one narrow row per delivery (two index entries) and the
 * recorded outcome deletes it. `webhook_deliveries_due_idx` goes too: no statement reads it since
 * the claim walks each endpoint's queue (`webhook_deliveries_endpoint_queue_idx`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_delivery_leases')
    .addColumn('delivery_id', 'uuid', (col) => col.primaryKey().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'uuid', (col) => col.notNull())
    // The order the delivery is about: at most one delivery per order and endpoint is in flight.
    .addColumn('order_id', 'text')
    .addColumn('token', 'uuid', (col) => col.notNull())
    // While in the future, an attempt is in flight; once past, any worker may claim the delivery again.
    .addColumn('claimed_until', 'timestamptz', (col) => col.notNull())
    // Rows live for one attempt: vacuum it often, so the in-flight count reads few dead rows.
    .modifyEnd(sql`with (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`)
    .execute();
  await db.schema.createIndex('webhook_delivery_leases_endpoint_idx').on('webhook_delivery_leases').columns(['endpoint_id', 'claimed_until']).execute();
  // Leases in force when the migration runs stay in force.
  await sql`
    insert into webhook_delivery_leases (delivery_id, endpoint_id, order_id, token, claimed_until)
    select id, endpoint_id, order_id, claim_token, claimed_until from webhook_deliveries
    where status = 'PENDING' and claimed_until is not null and claim_token is not null`.execute(db);
  await db.schema.dropIndex('webhook_deliveries_endpoint_pending_idx').execute();
  await db.schema.dropIndex('webhook_deliveries_due_idx').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('claimed_until').dropColumn('claim_token').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('claimed_until', 'timestamptz').addColumn('claim_token', 'uuid').execute();
  await sql`
    update webhook_deliveries d set claimed_until = l.claimed_until, claim_token = l.token
    from webhook_delivery_leases l where l.delivery_id = d.id`.execute(db);
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['next_attempt_at']).where(sql.ref('status'), '=', 'PENDING').execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_pending_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'claimed_until'])
    .where(sql.ref('status'), '=', 'PENDING')
    .execute();
  await db.schema.dropTable('webhook_delivery_leases').execute();
}
