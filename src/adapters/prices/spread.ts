/**
 * The spread: a fraction of the source's rate taken in the platform's favour on each side.
 * PAYIN (the customer pays BRL, the receiver gets tokens: the platform sells) prices the token
 * higher, rate × (1 + spread), rounded up; PAYOUT (tokens in, BRL out: the platform buys) prices it
 * lower, rate × (1 − spread), rounded down. Rates are stored with 8 decimals (orders.exchange_rate
 * NUMERIC(24,8)), so the rounding happens here, once, and always against the customer by less than
 * 10⁻⁸ BRL per token: the rate an order shows is exactly the rate its amounts were computed with.
 */
import { Dec, decimal } from '../../lib/money.ts';
import type { PriceSource } from './port.ts';

export const RATE_PLACES = 8;

export function rateWithSpread(rate: string, spread: string, type: 'PAYIN' | 'PAYOUT'): string {
  const mid = decimal(rate);
  return type === 'PAYIN'
    ? mid.times(decimal(1).plus(spread)).toDecimalPlaces(RATE_PLACES, Dec.ROUND_UP).toString()
    : mid.times(decimal(1).minus(spread)).toDecimalPlaces(RATE_PLACES, Dec.ROUND_DOWN).toString();
}

/** The source's rates with the spread applied (also with a spread of 0: a source's 9th decimal is rounded the same way). */
export function withSpread(source: PriceSource, spread: string): PriceSource {
  return {
    getRate: async (token, type) => rateWithSpread(await source.getRate(token, type), spread, type),
    ...(source.asOf ? { asOf: () => source.asOf!() } : {}),
  };
}
