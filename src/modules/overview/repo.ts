/**
 * GET /overview's SQL on orders: three statements, each on an index of its own
 * (docs/architecture/orders-indexes.md):
 * - the period's volumes: a range of orders_merchant_created_idx (merchant, created_at ≥ the
 *   period's first São Paulo midnight), grouped by São Paulo day and type: it reads the orders of
 *   the period only, however long the merchant's history;
 * - the status counts: the trigger-maintained counters (merchant_order_counts), no order read;
 * - the latest failed orders of the period: orders_merchant_status_created_idx, a few entries.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The instant São Paulo's day `day` ('YYYY-MM-DD') starts, computed by the database's time zone rules. */
const startOf = (day: string) => sql<Date>`(${day}::date::timestamp at time zone 'America/Sao_Paulo')`;
const spDay = sql<string>`to_char(orders.created_at at time zone 'America/Sao_Paulo', 'YYYY-MM-DD')`;

export const overviewRepo = {
  volumes(db: Db, merchantId: string, firstDay: string) {
    return db
      .selectFrom('orders')
      .select([
        spDay.as('day'),
        'orders.type',
        sql<number>`count(*)::int`.as('count'),
        sql<string>`coalesce(sum(orders.amount_brl), 0)::numeric(20, 2)::text`.as('amount_brl'),
        sql<number>`(count(*) filter (where orders.status = 'COMPLETED'))::int`.as('completed_count'),
        sql<string>`coalesce(sum(orders.amount_brl) filter (where orders.status = 'COMPLETED'), 0)::numeric(20, 2)::text`.as('completed_amount_brl'),
        sql<number>`(count(*) filter (where orders.status = 'FAILED'))::int`.as('failed_count'),
      ])
      .where('orders.merchant_id', '=', merchantId)
      .where('orders.created_at', '>=', startOf(firstDay))
      .groupBy([spDay, 'orders.type'])
      .execute();
  },

  statusCounts(db: Db, merchantId: string) {
    return db
      .selectFrom('merchant_order_counts')
      .select(['status', sql<number>`sum(count)::int`.as('count')])
      .where('merchant_id', '=', merchantId)
      .groupBy('status')
      .having(sql<number>`sum(count)`, '>', 0)
      .orderBy('status')
      .execute();
  },

  latestFailed(db: Db, merchantId: string, firstDay: string, limit: number) {
    return db
      .selectFrom('orders')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('status', '=', 'FAILED')
      .where('created_at', '>=', startOf(firstDay))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },
};
