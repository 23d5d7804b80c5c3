/**
 * The back office's orders as data (no React: routes.tsx's validateSearch reads these on the first
 * load): the API's types, the search parameters of the list and of the stuck queue (kept in the
 * address, so a search can be linked and reloaded; a malformed value is dropped, never an error),
 * and an age in words.
 */
import type { components } from '../../../api/schema.ts';
import { saoPauloDayEndExclusive, saoPauloDayStart } from '../../../lib/sao-paulo-day.ts';
import { ORDER_STATUSES, ORDER_TYPES, type OrderStatus, type OrderType } from '../../orders/statuses.ts';

export type AdminOrder = components['schemas']['AdminOrder'];
export type StuckOrder = components['schemas']['StuckOrder'];
export type AdminOrderDetail = components['schemas']['AdminOrderDetail'];
export type OrderAction = AdminOrder['allowedActions'][number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

// The router JSON-parses values (`?q=123` arrives as a number): both are taken as text.
const text = (value: unknown) => {
  const found = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  return typeof found === 'string' && found.trim() !== '' ? found.trim() : undefined;
};
const matching = (value: unknown, pattern: RegExp) => {
  const found = text(value);
  return found && pattern.test(found) ? found : undefined;
};
const defined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

export interface OpsOrderFilters {
  q?: string;
  status?: OrderStatus;
  type?: OrderType;
  merchantId?: string;
  from?: string;
  to?: string;
}
export interface OpsOrdersSearch extends OpsOrderFilters {
  cursor?: string;
}

/** validateSearch of /ops/orders. */
export function opsOrdersSearch(search: Record<string, unknown>): OpsOrdersSearch {
  return defined({
    q: text(search.q)?.slice(0, 200),
    status: ORDER_STATUSES.find((status) => status === search.status),
    type: ORDER_TYPES.find((type) => type === search.type),
    merchantId: matching(search.merchantId, UUID),
    from: matching(search.from, DAY),
    to: matching(search.to, DAY),
    cursor: matching(search.cursor, UUID),
  });
}

/** GET /admin/orders's query for the filters (dates as São Paulo instants; "to" includes its whole day: the API's createdBefore is exclusive). */
export function opsOrdersQuery(search: OpsOrdersSearch) {
  return defined({
    q: search.q,
    status: search.status,
    type: search.type,
    merchantId: search.merchantId,
    createdAfter: search.from ? saoPauloDayStart(search.from) : undefined,
    createdBefore: search.to ? saoPauloDayEndExclusive(search.to) : undefined,
    cursor: search.cursor,
  });
}

/** The stuck queue's threshold choices, in minutes (none: the service's STUCK_ORDER_MINUTES). */
export const THRESHOLDS = [5, 15, 30, 60, 240, 1440] as const;

export interface StuckSearch {
  olderThanMinutes?: number;
  cursor?: string;
}

/** validateSearch of /ops/orders/stuck. */
export function stuckSearch(search: Record<string, unknown>): StuckSearch {
  const minutes = Number(search.olderThanMinutes);
  return defined({
    olderThanMinutes: Number.isInteger(minutes) && minutes >= 1 && minutes <= 43_200 ? minutes : undefined,
    cursor: matching(search.cursor, UUID),
  });
}

/** An age as days, hours and minutes ("2 d 4 h", "3 h 12 min", "45 min", "< 1 min"): the same units in both languages. */
export function formatAge(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return minutes > 0 ? `${minutes} min` : '< 1 min';
}

/** Seconds from an ISO time to now (never negative: the browser's clock may lag the service's). */
export const secondsSince = (iso: string, now = Date.now()) => Math.max(0, Math.floor((now - new Date(iso).getTime()) / 1000));
