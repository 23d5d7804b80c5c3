/**
 * Money arithmetic in decimals, never JavaScript floats. Amounts arrive as JSON numbers (or
 * NUMERIC strings from the database); `decimal()` reads a number through its shortest round-trip
 * text, so 0.1 is exactly 0.1, and every computation stays decimal until the value leaves the API.
 */
import { Decimal } from 'decimal.js';

/** Banker's rounding by default (fees round half-even, DESIGN.md §4); other modes are explicit. */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -40, toExpPos: 40 });
export type Dec = Decimal;

export function decimal(value: number | string | Decimal): Decimal {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError('amount must be finite');
  return new Dec(typeof value === 'number' ? String(value) : value);
}

export function hasAtMostDecimals(value: number | string | Decimal, places: number): boolean {
  return decimal(value).decimalPlaces() <= places;
}

/**
 * A decimal as the API's JSON number. Safe for amounts with at most 15 significant digits
 * (NUMERIC(18,2) fits): the number prints back as exactly the same decimal text.
 */
export function toJsonNumber(value: Decimal | string): number {
  // Number() of the decimal text is what Decimal#toNumber does, without building a Decimal
  // (measured: a hot spot of GET /orders, which converts ~20 amounts per order).
  return typeof value === 'string' ? Number(value) : value.toNumber();
}

/** Plain text with a fixed number of decimals, for NUMERIC columns and string amounts ("0.00"). */
export function toFixedText(value: Decimal | string | number, places: number): string {
  return decimal(value).toFixed(places);
}

/** A fraction (0.015) as the API's percent number (1.5): fee tiers store fractions, orders and quotes show percent (DESIGN.md §4). */
export function toPercentNumber(fraction: Decimal | string): number {
  return toJsonNumber(decimal(fraction).times(100));
}
