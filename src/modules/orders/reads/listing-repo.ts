/**
 * GET /orders in one statement: the page of orders (keyset or offset), each with its receiver's
 * and merchant's names and its movements aggregated as JSON, and the exact total as a scalar
 * subquery (PostgreSQL evaluates it once). Totals for the unfiltered list and for type or status
 * come from the trigger-maintained counters; the other filters are selective and counted (an amount
 * range is counted over the merchant's orders: docs/architecture/orders-indexes.md).
 */
import { type SelectQueryBuilder, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '../../../db/schema.ts';
import type { Db } from '../../../db/database.ts';
import type { OrderType } from '../../../lib/order-types.ts';
import { ORDER_VIEW_COLUMNS, type OrderView, type StoredOrderStatus } from '../tables.ts';

export interface ListFilters {
  type?: OrderType;
  status?: StoredOrderStatus;
  receiverId?: string;
  externalId?: string;
  createdFrom?: string;
  createdTo?: string;
  /** Decimal text, compared as NUMERIC (never a float). */
  amountBrlMin?: string;
  amountBrlMax?: string;
}

/** Where the page starts: an offset, or just after / just before an order (newest first). */
export type PagePosition = { offset: number } | { startingAfter: string } | { endingBefore: string };

export interface ListedOrder extends OrderView {
  receiver_name: string;
  merchant_name: string;
  transactions: Array<{ id: string; type: string; status: string; amount: string; currency: string; created_at: string; chain: string | null; tx_hash: string | null }>;
  total: number | string;
}

type OrdersQuery = SelectQueryBuilder<Database, 'orders', object>;

function filtered(query: OrdersQuery, merchantId: string, filters: ListFilters): OrdersQuery {
  let q = query.where('orders.merchant_id', '=', merchantId);
  if (filters.type) q = q.where('orders.type', '=', filters.type);
  if (filters.status) q = q.where('orders.status', '=', filters.status);
  if (filters.receiverId) q = q.where('orders.receiver_id', '=', filters.receiverId);
  if (filters.externalId) q = q.where('orders.external_id', '=', filters.externalId);
  if (filters.createdFrom) q = q.where('orders.created_at', '>=', new Date(filters.createdFrom));
  if (filters.createdTo) q = q.where('orders.created_at', '<', new Date(filters.createdTo));
  // A filter on the rows the index hands over, not an index condition (docs/architecture/orders-indexes.md).
  if (filters.amountBrlMin) q = q.where('orders.amount_brl', '>=', sql<string>`${filters.amountBrlMin}::numeric`);
  if (filters.amountBrlMax) q = q.where('orders.amount_brl', '<=', sql<string>`${filters.amountBrlMax}::numeric`);
  return q;
}

/** The filters of the listing as a where clause on `orders`: the export reads the same rows. */
export { filtered as filteredOrders };

const countedByTriggers = (filters: ListFilters) =>
  !filters.receiverId && !filters.externalId && !filters.createdFrom && !filters.createdTo && !filters.amountBrlMin && !filters.amountBrlMax;

/** The exact number of orders matching the filters, as an expression for a select list. */
function totalOf(db: Db, merchantId: string, filters: ListFilters) {
  if (!countedByTriggers(filters)) {
    return filtered(db.selectFrom('orders'), merchantId, filters).select((eb) => eb.fn.countAll<string>().as('n'));
  }
  let counters = db.selectFrom('merchant_order_counts').where('merchant_id', '=', merchantId);
  if (filters.type) counters = counters.where('type', '=', filters.type);
  if (filters.status) counters = counters.where('status', '=', filters.status);
  return counters.select((eb) => eb.fn.coalesce(eb.fn.sum<string>('count'), sql<string>`0`).as('n'));
}

export const listingRepo = {
  /** Up to `limit + 1` orders (the extra one tells whether there are more), newest first. */
  async page(db: Db, merchantId: string, filters: ListFilters, position: PagePosition, limit: number): Promise<ListedOrder[]> {
    const backwards = 'endingBefore' in position;
    let page = filtered(db.selectFrom('orders'), merchantId, filters);
    if ('startingAfter' in position || 'endingBefore' in position) {
      const cursorId = 'startingAfter' in position ? position.startingAfter : position.endingBefore;
      const cursor = db.selectFrom('orders as c').select(['c.created_at', 'c.id']).where('c.id', '=', cursorId).where('c.merchant_id', '=', merchantId);
      page = page.where(({ eb, refTuple }) => eb(refTuple('orders.created_at', 'orders.id'), backwards ? '>' : '<', cursor.$asTuple('created_at', 'id')));
    }
    const direction = backwards ? 'asc' : 'desc';
    const rows = await db
      .with('page', () =>
        page
          .select(ORDER_VIEW_COLUMNS.map((column) => `orders.${column}` as const))
          .orderBy('orders.created_at', direction)
          .orderBy('orders.id', direction)
          .limit(limit + 1)
          .offset('offset' in position ? position.offset : 0),
      )
      .selectFrom('page as p')
      .innerJoin('receivers as r', 'r.id', 'p.receiver_id')
      .innerJoin('merchants as m', 'm.id', 'p.merchant_id')
      .select(ORDER_VIEW_COLUMNS.map((column) => `p.${column}` as const))
      .select(['r.name as receiver_name', 'm.name as merchant_name'])
      .select((eb) =>
        jsonArrayFrom(
          eb
            .selectFrom('order_transactions as t')
            .select(['t.id', 't.type', 't.status', sql<string>`t.amount::text`.as('amount'), 't.currency', 't.created_at', 't.chain', 't.tx_hash'])
            .whereRef('t.order_id', '=', 'p.id')
            .orderBy('t.created_at')
            .orderBy('t.id'),
        ).as('transactions'),
      )
      .select(() => totalOf(db, merchantId, filters).as('total'))
      .orderBy('p.created_at', direction)
      .orderBy('p.id', direction)
      .execute();
    return rows as unknown as ListedOrder[];
  },

  /** The total alone, for a page with no rows (the main statement then has none to carry it). */
  async total(db: Db, merchantId: string, filters: ListFilters): Promise<number> {
    const row = await totalOf(db, merchantId, filters).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  cursorExists(db: Db, merchantId: string, id: string) {
    return db.selectFrom('orders').select('id').where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst();
  },
};
