/**
 * Money arithmetic in decimals, never JavaScript floats. Request amounts arrive as exact decimal
 * text (`readDecimalText` reads them from the raw JSON, http/validator.ts), database amounts as
 * NUMERIC strings; `decimal()` reads a number through its shortest round-trip text, so 0.1 is
 * exactly 0.1, and every computation stays decimal until the value leaves the API.
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

/**
 * What a decimal request field accepts (the schema's `x-decimal` rule, DecimalAmount in
 * http/schemas.ts): at most `places` decimals, and a range. Bounds are decimal text.
 */
export interface DecimalRule {
  places: number;
  minimum?: string;
  exclusiveMinimum?: string;
  maximum: string;
}

/** Decimal text as a client may send it in a JSON string: no exponent, no sign but minus, no spaces. */
export const DECIMAL_TEXT_PATTERN = '^-?\\d+(\\.\\d+)?$';
const DECIMAL_TEXT = new RegExp(DECIMAL_TEXT_PATTERN);
/** A JSON number's text (RFC 8259 grammar, leading zeros aside): the exponent is allowed there. */
const JSON_NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][+-]?(\d+))?$/;
/** Longer text is no amount anyone means (NUMERIC(18,2) prints in 19 characters). */
export const MAX_DECIMAL_TEXT_LENGTH = 64;
/** |exponent| above this is refused before decimal.js reads it (it would silently underflow to 0 past 9e15). */
const MAX_EXPONENT = 64;

export type DecimalReading = { ok: true; text: string } | { ok: false; problem: string };

/**
 * Reads a decimal request field from the exact text the client sent (a JSON number's source
 * text, or a JSON string), never through a float: more decimals than `rule.places` is refused,
 * never rounded. Trailing zeros carry no value ("100.50" has 1 decimal), so the answer is the
 * value's plain text without them ("100.5"): the same for every way of writing one amount.
 */
export function readDecimalText(text: string, source: 'number' | 'string', rule: DecimalRule): DecimalReading {
  if (text.length > MAX_DECIMAL_TEXT_LENGTH) return { ok: false, problem: `must be at most ${MAX_DECIMAL_TEXT_LENGTH} characters long` };
  const match = source === 'number' ? JSON_NUMBER_TEXT.exec(text) : DECIMAL_TEXT.exec(text);
  if (!match) return { ok: false, problem: source === 'string' ? 'must be a number or plain decimal text such as "100.50" (no exponent, no spaces)' : 'must be a decimal number' };
  if (match[3] !== undefined && Number(match[3]) > MAX_EXPONENT) return { ok: false, problem: `must have an exponent of at most ${MAX_EXPONENT}` };
  const value = new Dec(text);
  if (value.decimalPlaces() > rule.places) return { ok: false, problem: `must have at most ${rule.places} decimal places` };
  if (rule.exclusiveMinimum !== undefined && value.lte(rule.exclusiveMinimum)) return { ok: false, problem: `must be greater than ${rule.exclusiveMinimum}` };
  if (rule.minimum !== undefined && value.lt(rule.minimum)) return { ok: false, problem: `must be >= ${rule.minimum}` };
  if (value.gt(rule.maximum)) return { ok: false, problem: `must be <= ${rule.maximum}` };
  // toFixed() without places is plain notation with no trailing zeros; -0 prints as 0.
  return { ok: true, text: value.toFixed() };
}
