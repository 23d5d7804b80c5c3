/**
 * GET /orders/export's SQL: the listing's filters (listing-repo.ts), newest first, a page at a
 * time by keyset on (created_at, id), the order the merchant index orders_merchant_created_idx
 * (and the status and receiver indexes) hold, so each page costs the same however deep.
 */
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { type ListFilters, filteredOrders } from './listing-repo.ts';

/** Where the next page starts: just after the last row sent. */
export interface ExportCursor {
  createdAt: Date;
  id: string;
}

const base = (db: Db, merchantId: string, filters: ListFilters) => filteredOrders(db.selectFrom('orders'), merchantId, filters);

export const exportRepo = {
  page(db: Db, merchantId: string, filters: ListFilters, after: ExportCursor | undefined, limit: number) {
    let query = base(db, merchantId, filters);
    if (after) query = query.where(({ eb, refTuple, tuple }) => eb(refTuple('orders.created_at', 'orders.id'), '<', tuple(after.createdAt, after.id)));
    return query
      .select([
        'orders.id', 'orders.external_id', 'orders.type', 'orders.status', 'orders.receiver_id', 'orders.chain', 'orders.token',
        'orders.amount_brl', 'orders.amount_token', 'orders.exchange_rate', 'orders.net_amount_brl',
        'orders.platform_fee_amount_brl', 'orders.merchant_fee_amount_brl', 'orders.created_at', 'orders.completed_at', 'orders.failure_reason',
        'orders.markup_amount_brl',
      ])
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc')
      .limit(limit)
      .execute();
  },

  /** Whether more than `cap` orders match: one probe past the cap, on the same index walk as the export. */
  async moreThan(db: Db, merchantId: string, filters: ListFilters, cap: number): Promise<boolean> {
    const row = await base(db, merchantId, filters)
      .select(sql<number>`1`.as('one'))
      .orderBy('orders.created_at', 'desc')
      .orderBy('orders.id', 'desc')
      .offset(cap)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },
};

export type ExportedRow = Awaited<ReturnType<typeof exportRepo.page>>[number];
