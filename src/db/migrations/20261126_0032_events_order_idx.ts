import { type Kysely, sql } from 'kysely';

/**
 * GET /orders/{id}/timeline reads an order's status changes from its events (the outbox keeps
 * every order event, webhook endpoints or not; no other table holds an order's history). The
 * events carry the order in their payload only, so without this index the statement reads every
 * event of the merchant. Partial: only order events carry an orderId, so the index holds those
 * alone; the statement names the same predicate as a literal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_merchant_order_idx on events (merchant_id, (payload ->> 'orderId'), created_at) where payload ? 'orderId'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index events_merchant_order_idx`.execute(db);
}
