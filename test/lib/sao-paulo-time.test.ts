import { describe, expect, it } from 'vitest';
import { inSaoPauloWindow, latestSaoPauloTimeOfDay, parseClockTime, saoPauloDay, saoPauloMinuteOfDay, saoPauloMonthOf } from '../../src/lib/sao-paulo-time.ts';

const night = { startMinute: parseClockTime('20:00'), endMinute: parseClockTime('06:00') };

describe('São Paulo time', () => {
  it('days change at São Paulo midnight (03:00 UTC)', () => {
    expect(saoPauloDay(new Date('2026-11-22T02:59:59Z'))).toBe('2026-11-21');
    expect(saoPauloDay(new Date('2026-11-22T03:00:00Z'))).toBe('2026-11-22');
    expect(saoPauloMinuteOfDay(new Date('2026-11-22T03:30:00Z'))).toBe(30);
  });

  it('a month is keyed by its first São Paulo day, so it changes at São Paulo midnight of the 1st', () => {
    expect(saoPauloMonthOf(saoPauloDay(new Date('2026-11-22T12:00:00Z')))).toBe('2026-11-01');
    expect(saoPauloMonthOf(saoPauloDay(new Date('2026-12-01T02:59:59Z')))).toBe('2026-11-01');
    expect(saoPauloMonthOf(saoPauloDay(new Date('2027-01-01T03:00:00Z')))).toBe('2027-01-01');
  });

  it('the night window 20:00–06:00 wraps midnight', () => {
    expect(inSaoPauloWindow(new Date('2026-11-22T22:59:00Z'), night)).toBe(false); // 19:59
    expect(inSaoPauloWindow(new Date('2026-11-22T23:00:00Z'), night)).toBe(true); // 20:00
    expect(inSaoPauloWindow(new Date('2026-11-23T08:59:00Z'), night)).toBe(true); // 05:59
    expect(inSaoPauloWindow(new Date('2026-11-23T09:00:00Z'), night)).toBe(false); // 06:00
    expect(inSaoPauloWindow(new Date('2026-11-23T15:00:00Z'), { startMinute: 600, endMinute: 900 })).toBe(true); // 12:00 in 10–15
  });

  it('finds the latest São Paulo midnight (or any time of day) at or before an instant', () => {
    expect(latestSaoPauloTimeOfDay(new Date('2026-11-22T12:34:56Z'), 0).toISOString()).toBe('2026-11-22T03:00:00.000Z');
    expect(latestSaoPauloTimeOfDay(new Date('2026-11-22T02:59:00Z'), 0).toISOString()).toBe('2026-11-21T03:00:00.000Z');
    expect(latestSaoPauloTimeOfDay(new Date('2026-11-22T03:00:30Z'), 0).toISOString()).toBe('2026-11-22T03:00:00.000Z');
    // 09:00 in São Paulo: the latest 10:00 was the day before.
    expect(latestSaoPauloTimeOfDay(new Date('2026-11-22T12:00:00Z'), 10 * 60).toISOString()).toBe('2026-11-21T13:00:00.000Z');
  });

  it('refuses malformed clock times', () => {
    for (const bad of ['24:00', '7:00', '07:60', 'noon']) expect(() => parseClockTime(bad)).toThrow(RangeError);
  });
});
