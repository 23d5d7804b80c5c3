/**
 * The orders list's search parameters (in the address, so a filtered page can be linked, reloaded
 * and exported): checked by validateSearch, and turned into GET /orders's (and GET
 * /orders/export's) query. Dates are São Paulo calendar days (yyyy-mm-dd): "from" is that day's
 * first instant, "to" includes the whole day (the API's createdTo is exclusive: the next day's
 * midnight), both from lib/sao-paulo-day.ts.
 */
import { saoPauloDayEndExclusive, saoPauloDayStart } from '../../lib/sao-paulo-day.ts';
import { ORDER_STATUSES, ORDER_TYPES, type OrderStatus, type OrderType } from './statuses.ts';

export interface OrderFilters {
  type?: OrderType;
  status?: OrderStatus;
  receiverId?: string;
  externalId?: string;
  createdFrom?: string;
  createdTo?: string;
  amountBrlMin?: string;
  amountBrlMax?: string;
}

export interface OrdersSearch extends OrderFilters {
  startingAfter?: string;
  endingBefore?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The API's BRL bound: plain decimal text, at most 2 decimals. */
export const BRL_BOUND = /^\d{1,13}(\.\d{1,2})?$/;

// The router reads `?amountBrlMin=100` as the number 100 (it JSON-parses values, and writes a
// numeric-looking string quoted, `%22100%22`, to keep it a string): both are taken.
const text = (value: unknown) => {
  const found = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  return typeof found === 'string' && found.trim() !== '' ? found.trim() : undefined;
};
const matching = (value: unknown, pattern: RegExp) => {
  const found = text(value);
  return found && pattern.test(found) ? found : undefined;
};

/** validateSearch of /orders: keeps what is well formed, drops the rest (a bad link shows the unfiltered list, never an error). */
export function ordersSearch(search: Record<string, unknown>): OrdersSearch {
  const result: OrdersSearch = {
    type: ORDER_TYPES.find((type) => type === search.type),
    status: ORDER_STATUSES.find((status) => status === search.status),
    receiverId: matching(search.receiverId, UUID),
    externalId: text(search.externalId)?.slice(0, 128),
    createdFrom: matching(search.createdFrom, DAY),
    createdTo: matching(search.createdTo, DAY),
    amountBrlMin: matching(search.amountBrlMin, BRL_BOUND),
    amountBrlMax: matching(search.amountBrlMax, BRL_BOUND),
    startingAfter: matching(search.startingAfter, UUID),
    endingBefore: matching(search.endingBefore, UUID),
  };
  if (result.startingAfter && result.endingBefore) delete result.endingBefore;
  return Object.fromEntries(Object.entries(result).filter(([, value]) => value !== undefined)) as OrdersSearch;
}

/** The API query for the filters (dates as São Paulo instants). */
export function filterQuery(filters: OrderFilters): Record<string, string> {
  const query: Record<string, string | undefined> = {
    type: filters.type,
    status: filters.status,
    receiverId: filters.receiverId,
    externalId: filters.externalId,
    createdFrom: filters.createdFrom ? saoPauloDayStart(filters.createdFrom) : undefined,
    createdTo: filters.createdTo ? saoPauloDayEndExclusive(filters.createdTo) : undefined,
    amountBrlMin: filters.amountBrlMin,
    amountBrlMax: filters.amountBrlMax,
  };
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Only the filters of a search (paging cursors dropped), e.g. for the export link or a new filter. */
export function filtersOf(search: OrdersSearch): OrderFilters {
  const { startingAfter: _after, endingBefore: _before, ...filters } = search;
  return filters;
}

/** "100,50" or "100.50" → "100.50"; undefined when empty; null when not an amount. */
export function brlBound(input: string): string | undefined | null {
  const value = input.trim().replace(/\s/g, '').replace(',', '.');
  if (value === '') return undefined;
  return BRL_BOUND.test(value) ? value : null;
}
