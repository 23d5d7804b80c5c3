import { type Kysely, sql } from 'kysely';

/**
 * Webhooks: merchants' endpoints and their signing secrets, one delivery per (event, endpoint)
 * with its attempts, and the fan-out marker on the events outbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Fan-out marker: the worker turns each event into deliveries exactly once, then stamps it.
  // A partial index keeps "what is left to fan out" small however long the outbox grows.
  await db.schema.alterTable('events').addColumn('fanned_out_at', 'timestamptz').execute();
  await db.schema
    .createIndex('events_not_fanned_out_idx')
    .on('events')
    .columns(['created_at', 'id'])
    .where(sql.ref('fanned_out_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    // null: every event; else the event names this endpoint receives.
    .addColumn('event_types', 'jsonb')
    .addColumn('enabled', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    // Soft delete: the delivery log keeps pointing at it.
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_merchant_idx')
    .on('webhook_endpoints')
    .columns(['merchant_id', 'created_at'])
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();

  // The current secret has expires_at null; after a rotation the previous one keeps signing
  // until its expires_at (24 h), so receivers can switch without losing deliveries.
  await db.schema
    .createTable('webhook_endpoint_secrets')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('endpoint_id', 'uuid', (col) => col.notNull().references('webhook_endpoints.id'))
    // AES-256-GCM under WEBHOOK_SECRET_KEY, endpoint id as associated data.
    .addColumn('secret_ciphertext', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('webhook_endpoint_secrets_endpoint_idx').on('webhook_endpoint_secrets').column('endpoint_id').execute();
  await db.schema
    .createIndex('webhook_endpoint_secrets_current_key')
    .on('webhook_endpoint_secrets')
    .column('endpoint_id')
    .unique()
    .where(sql.ref('expires_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    // The deliveryId: sent as webhook-id and in the body, the same on every attempt.
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('endpoint_id', 'uuid', (col) => col.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'uuid', (col) => col.notNull().references('events.id'))
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('PENDING').check(sql`status in ('PENDING', 'SUCCEEDED', 'FAILED')`))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    // Automatic retries used so far; a manual redelivery sets it past the schedule (one attempt).
    .addColumn('retries_used', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    // A worker's lease: while in the future, the delivery is in flight; once past, any worker may retry it.
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('claim_token', 'uuid')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('webhook_deliveries_event_endpoint_key', ['event_id', 'endpoint_id'])
    .addCheckConstraint('webhook_deliveries_pending_scheduled', sql`status <> 'PENDING' or next_attempt_at is not null`)
    .execute();
  // The claim query: due pending deliveries in next_attempt_at order.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), '=', 'PENDING')
    .execute();
  // In-flight count per endpoint (the per-endpoint concurrency cap).
  await db.schema
    .createIndex('webhook_deliveries_endpoint_pending_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'claimed_until'])
    .where(sql.ref('status'), '=', 'PENDING')
    .execute();
  // The delivery log, newest first, and its order filter.
  await db.schema
    .createIndex('webhook_deliveries_merchant_created_idx')
    .on('webhook_deliveries')
    .expression(sql`merchant_id, created_at desc, id desc`)
    .execute();
  await db.schema.createIndex('webhook_deliveries_merchant_order_idx').on('webhook_deliveries').columns(['merchant_id', 'order_id']).execute();

  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('delivery_id', 'uuid', (col) => col.notNull().references('webhook_deliveries.id'))
    .addColumn('attempt_number', 'integer', (col) => col.notNull())
    .addColumn('attempted_at', 'timestamptz', (col) => col.notNull())
    .addColumn('succeeded', 'boolean', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (col) => col.notNull())
    .addColumn('error', 'text')
    // The first KiB of the response body, as text.
    .addColumn('response_body', 'text')
    .addUniqueConstraint('webhook_delivery_attempts_number_key', ['delivery_id', 'attempt_number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_delivery_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoint_secrets').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
  await db.schema.dropIndex('events_not_fanned_out_idx').execute();
  await db.schema.alterTable('events').dropColumn('fanned_out_at').execute();
}
