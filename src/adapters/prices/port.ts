import type { OrderType } from '../../lib/order-types.ts';

/**
 * The price source: how many BRL one unit of a token is worth, as decimal text. `type` is the
 * direction of the trade (PAYIN: the platform sells the token for BRL; PAYOUT: it buys it), so a
 * source may quote each side differently (the spread, src/adapters/prices/spread.ts).
 */
export interface PriceSource {
  /** e.g. getRate('USDC', 'PAYIN') → "5.40" (BRL per USDC). Throws PriceUnavailableError when it has no usable price. */
  getRate(token: string, type: OrderType): Promise<string>;
  /**
   * Epoch ms the prices it holds are as of (undefined: none yet), for the price_age_seconds gauge.
   * Asking starts a refresh when one is due, as getRate does, so the age measures the source and
   * not the traffic (with no order for a while, a price is otherwise never fetched). A source of
   * fixed rates has no age and leaves it out.
   */
  asOf?(): number | undefined;
}

/**
 * No price fresh enough to trade on (the source is unreachable, answered nonsense, or its last
 * price is older than the maximum age). `reason` is for logs only; callers answer with their own words.
 */
export class PriceUnavailableError extends Error {
  readonly reason: string;

  constructor(token: string, reason: string) {
    super(`no usable price for ${token}: ${reason}`);
    this.name = 'PriceUnavailableError';
    this.reason = reason;
  }
}
