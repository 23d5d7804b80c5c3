/**
 * GET /orders: `page`/`limit` as the spec has them, plus Stripe-style keyset pagination
 * (`startingAfter` / `endingBefore` an order id) so a page 10,000 orders deep costs what the
 * first page costs. One round trip for a page with rows (see listing-repo.ts).
 *
 * Rendered pages are kept in memory for `cacheTtlMs` (ORDER_LIST_CACHE_MS, 1 s by default):
 * merchants poll their first page, and a repeated page then costs no round trip and no
 * serialization. A list may lag a change by at most that long; this process's own creations
 * clear the merchant's pages at once. GET /orders/{id} is never cached.
 */
import type { Static } from 'typebox';
import type { Db } from '../../../db/database.ts';
import type { ReadRouter } from '../../../db/read-router.ts';
import type { PersonalData } from '../../../lib/personal-data.ts';
import { invalidField } from '../../../errors.ts';
import { decimal } from '../../../lib/money.ts';
import { createReadCache } from '../../../lib/read-cache.ts';
import { type ListFilters, type ListedOrder, type PagePosition, listingRepo as repo } from './listing-repo.ts';
import type { OrderListQuery } from '../schemas.ts';
import { openOrderColumns } from '../sealed-columns.ts';
import { type Order, toOrder } from '../view.ts';


function toListedOrder(row: ListedOrder, pd: Pick<PersonalData, 'open' | 'openNullable'>): Order {
  const transactions = row.transactions.map((tx) => ({ ...tx, order_id: row.id, created_at: new Date(tx.created_at), updated_at: new Date(tx.created_at) }));
  return toOrder(openOrderColumns(pd, row), transactions as Parameters<typeof toOrder>[1], { merchantName: row.merchant_name, receiverName: pd.open('name', row.receiver_name) });
}

/** Bounds the memory of rendered pages: at most 100 orders (~120 KB) each. */
const MAX_CACHED_PAGES = 512;

/** amountBrlMin above amountBrlMax matches nothing by mistake: refused, naming the field. */
export function checkAmountRange(filters: { amountBrlMin?: string | undefined; amountBrlMax?: string | undefined }): void {
  const { amountBrlMin, amountBrlMax } = filters;
  if (amountBrlMin !== undefined && amountBrlMax !== undefined && decimal(amountBrlMin).greaterThan(amountBrlMax)) {
    throw invalidField('querystring.amountBrlMax', 'must not be below amountBrlMin');
  }
}

export type OrderListQueryValue = Static<typeof OrderListQuery>;

export function createOrderListing(deps: { db: Db; personalData: Pick<PersonalData, 'open' | 'openNullable'>; cacheTtlMs?: number; reads?: Pick<ReadRouter, 'forMerchant'> }) {
  /** The replica within its freshness bound, or the primary (db/read-router.ts). */
  const dbFor = (merchantId: string) => deps.reads?.forMerchant(merchantId) ?? deps.db;
  const rendered = createReadCache<Buffer>({ ttlMs: deps.cacheTtlMs ?? 0, maxEntries: MAX_CACHED_PAGES });

  function positionOf(query: OrderListQueryValue): PagePosition {
    const { page, limit, startingAfter, endingBefore } = query;
    if (startingAfter !== undefined && endingBefore !== undefined) throw invalidField('querystring.endingBefore', 'cannot be combined with startingAfter');
    const cursor = startingAfter ?? endingBefore;
    if (cursor === undefined) return { offset: (page - 1) * limit };
    if (page !== 1) throw invalidField('querystring.page', 'cannot be combined with startingAfter or endingBefore');
    return startingAfter !== undefined ? { startingAfter } : { endingBefore: endingBefore! };
  }

  async function list(merchantId: string, query: OrderListQueryValue) {
    const { page, limit, startingAfter: _after, endingBefore: _before, ...filters } = query;
    const position = positionOf(query);
    checkAmountRange(filters);
    // PENDING is a status of the spec's enumeration that is never stored (see tables.ts).
    if (filters.status === 'PENDING') return { data: [], total: 0, page, limit, hasMore: false };
    const db = dbFor(merchantId);
    const rows = await repo.page(db, merchantId, filters as ListFilters, position, limit);
    if (rows.length === 0) {
      const cursor = 'startingAfter' in position ? position.startingAfter : 'endingBefore' in position ? position.endingBefore : undefined;
      if (cursor !== undefined && !(await repo.cursorExists(db, merchantId, cursor))) {
        throw invalidField('startingAfter' in position ? 'querystring.startingAfter' : 'querystring.endingBefore', 'is not an order of this merchant');
      }
      return { data: [], total: await repo.total(db, merchantId, filters as ListFilters), page, limit, hasMore: false };
    }
    const hasMore = rows.length > limit;
    const shown = rows.slice(0, limit);
    if ('endingBefore' in position) shown.reverse();
    return { data: shown.map((row) => toListedOrder(row, deps.personalData)), total: Number(rows[0]!.total), page, limit, hasMore };
  }

  return {
    list,

    /** The page as `render` turns it into the response body, from memory when a fresh copy is there. */
    listRendered(merchantId: string, query: OrderListQueryValue, render: (page: Awaited<ReturnType<typeof list>>) => Buffer): Promise<Buffer> {
      return rendered.read(`${merchantId}:${JSON.stringify(query)}`, async () => render(await list(merchantId, query)));
    },

    /** The merchant's orders changed: its rendered pages are dropped. */
    forgetMerchant: (merchantId: string) => rendered.forgetPrefix(`${merchantId}:`),
  };
}

export type OrderListing = ReturnType<typeof createOrderListing>;
