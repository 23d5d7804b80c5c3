import { type Kysely, sql } from 'kysely';

/**
 * Each dispute counts the events it emitted (order.disputed, dispute.updated, dispute.resolved):
 * the event carries the count as `sequence`, so a receiver orders a claim's events whatever order
 * their deliveries arrive in (a return settling after the claim was resolved sends
 * dispute.updated after dispute.resolved). Existing claims start at 0; their next event is 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table disputes add column event_sequence integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table disputes drop column event_sequence`.execute(db);
}
