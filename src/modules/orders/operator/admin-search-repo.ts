/**
 * The back office's SQL on orders, across every merchant (docs/architecture/back-office.md):
 * the search by any id, the operator's queue (stuck orders) and one order with its merchant's
 * name. Reads only. Which index serves which statement: docs/architecture/orders-indexes.md.
 */
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Db } from '../../../db/database.ts';
import type { OrderType } from '../../../lib/order-types.ts';
import { UUID_PATTERN } from '../../../lib/ids.ts';
import { IN_TRANSIT_STATUSES } from '../lifecycle/operator-actions.ts';
import type { OrderRow, StoredOrderStatus } from '../tables.ts';

/** What an operator's row shows (admin-view.ts), and what the operator actions rule reads. */
export const ADMIN_ORDER_COLUMNS = [
  'id', 'merchant_id', 'receiver_id', 'type', 'status', 'chain', 'token', 'external_id', 'amount_brl', 'failure_reason',
  'pix_end_to_end_id', 'payout_refused_at', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof OrderRow>;
export type AdminOrderRow = Pick<OrderRow, (typeof ADMIN_ORDER_COLUMNS)[number]> & { merchant_name: string };

/** One order's references, worker state and how its amount divides (fees, markup, net), shown on its own page only. */
const DETAIL_COLUMNS = [
  'pix_txid', 'provider_transaction_id', 'refund_id', 'tx_hash', 'treasury_wallet', 'step_attempts', 'next_step_at',
  'platform_fee_amount_brl', 'merchant_fee_amount_brl', 'net_amount_brl', 'markup_bps', 'markup_flat_brl', 'markup_cap_brl', 'markup_amount_brl',
] as const satisfies ReadonlyArray<keyof OrderRow>;
export type AdminOrderDetailRow = AdminOrderRow & Pick<OrderRow, (typeof DETAIL_COLUMNS)[number]>;

export interface AdminSearch {
  q?: string;
  status?: StoredOrderStatus;
  type?: OrderType;
  merchantId?: string;
  createdBefore?: string;
  createdAfter?: string;
  /** Newest first: only orders whose id is below this one (ids are UUIDv7, time-ordered). */
  cursor?: string;
}

type OrdersQuery = SelectQueryBuilder<Database, 'orders' | 'merchants', object>;

const withMerchant = (db: Db): OrdersQuery => db.selectFrom('orders').innerJoin('merchants', 'merchants.id', 'orders.merchant_id');
const adminColumns = (query: OrdersQuery) =>
  query.select(ADMIN_ORDER_COLUMNS.map((column) => `orders.${column}` as const)).select('merchants.name as merchant_name');

/**
 * The ids of the orders `q` names, each kind of id by its own index: the order's id (only when
 * q is a uuid), a provider reference (partial unique indexes), a movement's signature or
 * endToEndId, current or replaced (migration 0034; the order's own tx_hash and
 * pix_end_to_end_id are always its movements' too), and the merchant's externalId. The
 * externalId is unique per merchant only, (merchant_id, external_id): probed once per merchant
 * (a lateral join, a skip scan by hand), which costs a few buffers per merchant and no index on
 * every order.
 */
function matching(db: Db, q: string) {
  const byColumn = (column: 'pix_txid' | 'provider_transaction_id' | 'refund_id') => db.selectFrom('orders').select('orders.id').where(column, '=', q);
  let ids = byColumn('pix_txid')
    .union(byColumn('provider_transaction_id'))
    .union(byColumn('refund_id'))
    .union(db.selectFrom('order_transactions').select('order_transactions.order_id as id').where('tx_hash', '=', q))
    .union(
      db
        .selectFrom('order_transactions')
        .select('order_transactions.order_id as id')
        // The partial index's predicate, named so that the planner proves it.
        .where(sql<boolean>`cardinality(previous_tx_hashes) > 0`)
        .where(sql<boolean>`previous_tx_hashes @> array[${q}]::text[]`),
    )
    .union(
      db
        .selectFrom('merchants as mq')
        .innerJoinLateral(
          // `limit 1` (one per merchant, by the unique key) also keeps the planner from flattening
          // the join into one scan of the whole index on its second column.
          (eb) => eb.selectFrom('orders as oq').select('oq.id').whereRef('oq.merchant_id', '=', 'mq.id').where('oq.external_id', '=', q).limit(1).as('x'),
          (join) => join.onTrue(),
        )
        .select('x.id'),
    );
  if (UUID_PATTERN.test(q)) ids = ids.union(db.selectFrom('orders').select('orders.id').where('id', '=', q));
  return ids;
}

/** A literal list, so that even a generic plan proves orders_operator_queue_idx's predicate. */
const literals = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * The operator's queue: in transit and unchanged since `before`, or FAILED holding money (any
 * age); orders_operator_queue_idx's predicate (migration 0036). Parenthesized whole: Kysely writes
 * a raw condition as it is, and `and` binds tighter than `or`.
 */
const inOperatorQueue = (before: Date) =>
  sql<boolean>`((orders.status in (${literals(IN_TRANSIT_STATUSES)}) and orders.updated_at <= ${before})
    or (orders.status = 'FAILED' and orders.type = 'PAYIN' and orders.pix_end_to_end_id is not null)
    or (orders.status = 'FAILED' and orders.type = 'PAYOUT' and orders.payout_refused_at is not null))`;

export const adminOrdersRepo = {
  /** Up to `limit` + 1 orders matching the search, newest first (the extra one tells there are more). */
  search(db: Db, search: AdminSearch, limit: number): Promise<AdminOrderRow[]> {
    let query = adminColumns(withMerchant(db));
    if (search.q !== undefined) query = query.where('orders.id', 'in', matching(db, search.q));
    if (search.status) query = query.where('orders.status', '=', search.status);
    if (search.type) query = query.where('orders.type', '=', search.type);
    if (search.merchantId) query = query.where('orders.merchant_id', '=', search.merchantId);
    if (search.createdAfter) query = query.where('orders.created_at', '>=', new Date(search.createdAfter));
    if (search.createdBefore) query = query.where('orders.created_at', '<', new Date(search.createdBefore));
    if (search.cursor) query = query.where('orders.id', '<', search.cursor);
    return query.orderBy('orders.id', 'desc').limit(limit + 1).execute();
  },

  /**
   * The operator's queue, oldest change first: orders in transit that last changed at or before
   * `before`, and orders FAILED holding money (failedWithMoneyHeld: a PAYIN's PIX, a PAYOUT's
   * tokens), of any age. The predicate is orders_operator_queue_idx's (migration 0036).
   * Keyset: after the order `cursor` (its position read now). Up to `limit` + 1 rows.
   */
  stuck(db: Db, before: Date, limit: number, cursor?: string): Promise<AdminOrderRow[]> {
    let query = adminColumns(withMerchant(db)).where(inOperatorQueue(before));
    if (cursor) {
      const position = db.selectFrom('orders as c').select(['c.updated_at', 'c.id']).where('c.id', '=', cursor);
      query = query.where(({ eb, refTuple }) => eb(refTuple('orders.updated_at', 'orders.id'), '>', position.$asTuple('updated_at', 'id')));
    }
    return query.orderBy('orders.updated_at').orderBy('orders.id').limit(limit + 1).execute();
  },

  /**
   * The operator's queue counted (the gauge orders_stuck, stuck-metrics.ts), by type and reason:
   * IN_TRANSIT_TOO_LONG (in transit, unchanged since `before`) and FAILED_WITH_MONEY_HELD. The
   * predicate is `stuck`'s, so orders_operator_queue_idx serves it.
   */
  stuckCounts(db: Db, before: Date): Promise<Array<{ type: OrderType; reason: 'IN_TRANSIT_TOO_LONG' | 'FAILED_WITH_MONEY_HELD'; count: number }>> {
    return db
      .selectFrom('orders')
      .select([
        'orders.type',
        sql<'IN_TRANSIT_TOO_LONG' | 'FAILED_WITH_MONEY_HELD'>`case when orders.status = 'FAILED' then 'FAILED_WITH_MONEY_HELD' else 'IN_TRANSIT_TOO_LONG' end`.as('reason'),
        sql<number>`count(*)::int`.as('count'),
      ])
      .where(inOperatorQueue(before))
      .groupBy(['orders.type', 'reason'])
      .execute();
  },

  find(db: Db, id: string): Promise<AdminOrderDetailRow | undefined> {
    return adminColumns(withMerchant(db))
      .select(DETAIL_COLUMNS.map((column) => `orders.${column}` as const))
      .where('orders.id', '=', id)
      .executeTakeFirst();
  },
};
