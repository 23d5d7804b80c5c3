/**
 * The São Paulo day helper (web/src/lib/sao-paulo-day.ts), the one every date filter of both apps
 * uses: a calendar day there is [00:00−03:00, next 00:00−03:00), whatever the machine's zone, across
 * month and year ends; the inclusive end is the exclusive one's previous millisecond.
 */
import { describe, expect, it } from 'vitest';
import { saoPauloDayEndExclusive, saoPauloDayEndInclusive, saoPauloDayStart, saoPauloToday } from '../../web/src/lib/sao-paulo-day.ts';
import { filterQuery } from '../../web/src/pages/orders/filters.ts';
import { opsOrdersQuery } from '../../web/src/pages/ops/orders/admin-orders.ts';

describe('São Paulo calendar days', () => {
  it('a day starts at 03:00 UTC and ends at the next day 03:00 UTC', () => {
    expect(saoPauloDayStart('2026-12-05')).toBe('2026-12-05T03:00:00.000Z');
    expect(saoPauloDayEndExclusive('2026-12-05')).toBe('2026-12-06T03:00:00.000Z');
    expect(saoPauloDayEndInclusive('2026-12-05')).toBe('2026-12-06T02:59:59.999Z');
  });

  it('month, year and leap-day ends roll over', () => {
    expect(saoPauloDayEndExclusive('2026-12-31')).toBe('2027-01-01T03:00:00.000Z');
    expect(saoPauloDayEndExclusive('2028-02-28')).toBe('2028-02-29T03:00:00.000Z');
    expect(saoPauloDayEndExclusive('2027-02-28')).toBe('2027-03-01T03:00:00.000Z');
    expect(saoPauloDayStart('2027-01-01')).toBe('2027-01-01T03:00:00.000Z');
  });

  it("today is São Paulo's date, which lags UTC's by three hours", () => {
    expect(saoPauloToday(new Date('2026-12-06T02:59:59.999Z'))).toBe('2026-12-05');
    expect(saoPauloToday(new Date('2026-12-06T03:00:00.000Z'))).toBe('2026-12-06');
  });

  it('both order lists send the whole "to" day as the exclusive bound their APIs take', () => {
    expect(filterQuery({ createdFrom: '2026-11-26', createdTo: '2026-11-30' })).toEqual({ createdFrom: '2026-11-26T03:00:00.000Z', createdTo: '2026-12-01T03:00:00.000Z' });
    expect(opsOrdersQuery({ from: '2026-11-26', to: '2026-11-30' })).toEqual({ createdAfter: '2026-11-26T03:00:00.000Z', createdBefore: '2026-12-01T03:00:00.000Z' });
  });
});
