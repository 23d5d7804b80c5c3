/** GET /orders/{id}/timeline's own SQL: the order's events (its status changes), by events_merchant_order_idx. */
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';

export const timelineRepo = {
  statusEvents(db: Db, merchantId: string, orderId: string) {
    return db
      .selectFrom('events')
      // `timestamp`: the emitter's clock, the one the order's own times come from (created_at is the database's).
      .select(['id', 'event_type', sql<string | null>`payload ->> 'status'`.as('status'), sql<string | null>`payload ->> 'timestamp'`.as('timestamp'), 'created_at'])
      .where('merchant_id', '=', merchantId)
      .where(sql<string>`payload ->> 'orderId'`, '=', orderId)
      // The index's predicate, as a literal, so a generic plan proves it too.
      .where(sql<boolean>`payload ? 'orderId'`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },
};
