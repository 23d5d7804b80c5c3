/**
 * GET /orders/{id}/timeline's own SQL: the order's events, by events_merchant_order_idx: its status
 * changes, and the MED claim events about it (those carry a disputeId, and their status is the claim's).
 */
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';

export const timelineRepo = {
  orderEvents(db: Db, merchantId: string, orderId: string) {
    return db
      .selectFrom('events')
      // `timestamp`: the emitter's clock, the one the order's own times come from (created_at is the database's).
      .select([
        'id',
        'event_type',
        sql<string | null>`payload ->> 'status'`.as('status'),
        sql<string | null>`payload ->> 'timestamp'`.as('timestamp'),
        sql<string | null>`payload ->> 'disputeId'`.as('dispute_id'),
        sql<string | null>`payload ->> 'outcome'`.as('outcome'),
        sql<string | null>`payload ->> 'defenseDeadline'`.as('defense_deadline'),
        'created_at',
      ])
      .where('merchant_id', '=', merchantId)
      .where(sql<string>`payload ->> 'orderId'`, '=', orderId)
      // The index's predicate, as a literal, so a generic plan proves it too.
      .where(sql<boolean>`payload ? 'orderId'`)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },
};
