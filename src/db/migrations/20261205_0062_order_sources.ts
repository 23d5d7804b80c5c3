import { type Kysely, sql } from 'kysely';

/**
 * Where an order came from (issue 43): the merchant's API call, or an instrument the service
 * acts on for the merchant: a standing deposit address, a standing PIX charge, a payout batch.
 * `source_id` names that instrument; an API order has none. Existing orders came from the API.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('source_kind', 'text', (col) =>
      col.notNull().defaultTo('API').check(sql`source_kind in ('API', 'STANDING_DEPOSIT_ADDRESS', 'STANDING_PIX_CHARGE', 'PAYOUT_BATCH')`),
    )
    .addColumn('source_id', 'uuid')
    .execute();
  await db.schema.alterTable('orders').addCheckConstraint('orders_source_named_check', sql`(source_kind = 'API') = (source_id is null)`).execute();
  await db.schema.createIndex('orders_source_idx').on('orders').columns(['source_id', 'created_at']).where(sql.ref('source_id'), 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_source_idx').execute();
  await db.schema.alterTable('orders').dropConstraint('orders_source_named_check').execute();
  await db.schema.alterTable('orders').dropColumn('source_id').dropColumn('source_kind').execute();
}
