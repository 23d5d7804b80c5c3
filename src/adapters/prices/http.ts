/**
 * The HTTP price source (PRICE_SOURCE=http): `GET PRICE_URL` answers
 *   { "rates": { "USDC": "5.4012" }, "timestamp": "2026-11-24T03:00:00Z" }
 * — BRL per unit of each token as decimal strings (a JSON number is refused: money is never a
 * float), and optionally when the source priced them. The last answer is kept with its time: the
 * older of our receipt and the source's timestamp, so a source serving an old price is caught too.
 *
 * Fetching is on demand, never one call per order: a price older than half the maximum age starts
 * a refresh (one in flight at a time, at most one attempt per RETRY_SPACING_MS) that callers wait
 * for only when the price they hold is already too old. Past PRICE_MAX_AGE_MS nothing is priced:
 * PriceUnavailableError, which quotes and orders answer as 503 PRICE_UNAVAILABLE.
 */
import type { PriceSettings } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal } from '../../lib/money.ts';
import { type PriceSource, PriceUnavailableError } from './port.ts';

/** PRICE_SOURCE=http's settings, its URL given. */
export type HttpPriceSettings = Pick<PriceSettings, 'maxAgeMs' | 'timeoutMs'> & { url: string };

interface Prices {
  rates: Record<string, string>;
  /** Epoch ms the prices are as of. */
  asOf: number;
}

/** A sane rate: positive decimal text, at most 15 integer digits. */
const RATE = /^\d{1,15}(\.\d{1,18})?$/;
const MAX_BODY_BYTES = 64 * 1024;

/** The source's answer as Prices, or the reason it is unusable. */
export function parsePrices(body: unknown, receivedAt: number): Prices | string {
  if (typeof body !== 'object' || body === null) return 'the answer is not a JSON object';
  const { rates, timestamp } = body as { rates?: unknown; timestamp?: unknown };
  if (typeof rates !== 'object' || rates === null || Array.isArray(rates)) return 'the answer has no "rates" object';
  const parsed: Record<string, string> = {};
  for (const [token, rate] of Object.entries(rates)) {
    if (typeof rate !== 'string' || !RATE.test(rate) || decimal(rate).lte(0)) return `the rate of ${token} is not a positive decimal string`;
    parsed[token] = rate;
  }
  let asOf = receivedAt;
  if (timestamp !== undefined) {
    const at = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
    if (Number.isNaN(at)) return '"timestamp" is not an ISO 8601 date-time';
    asOf = Math.min(asOf, at);
  }
  return { rates: parsed, asOf };
}

export function createHttpPriceSource(deps: { clock: Clock; settings: HttpPriceSettings }): PriceSource & { refresh(): Promise<void> } {
  const { clock, settings } = deps;
  const refreshAfterMs = Math.floor(settings.maxAgeMs / 2);
  const retrySpacingMs = Math.min(1000, refreshAfterMs);
  let last: Prices | undefined;
  let lastFailure = 'no price fetched yet';
  let lastAttemptAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | undefined;

  async function fetchPrices(): Promise<void> {
    try {
      const response = await fetch(settings.url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(settings.timeoutMs) });
      const text = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new Error('the answer is too large');
      const prices = parsePrices(JSON.parse(text), clock.now().getTime());
      if (typeof prices === 'string') throw new Error(prices);
      // An answer older than the one held (a slow request overtaken) never replaces it.
      if (!last || prices.asOf >= last.asOf) last = prices;
      lastFailure = 'none: the source answered, with an old price';
    } catch (err) {
      lastFailure = err instanceof SyntaxError ? 'the answer is not JSON' : (err as Error).message;
    }
  }

  /** Starts a fetch unless one is in flight or the last began less than retrySpacingMs ago; resolves when the current one ends. */
  function refresh(now: number): Promise<void> {
    if (!inFlight && now - lastAttemptAt >= retrySpacingMs) {
      lastAttemptAt = now;
      inFlight = fetchPrices().finally(() => {
        inFlight = undefined;
      });
    }
    return inFlight ?? Promise.resolve();
  }

  const ageOf = (prices: Prices | undefined, now: number) => (prices ? now - prices.asOf : Number.POSITIVE_INFINITY);

  return {
    async getRate(token) {
      const now = clock.now().getTime();
      if (ageOf(last, now) > refreshAfterMs) {
        const pending = refresh(now);
        if (ageOf(last, now) > settings.maxAgeMs) await pending;
      }
      const age = ageOf(last, clock.now().getTime());
      if (age > settings.maxAgeMs) {
        throw new PriceUnavailableError(token, last ? `the last price is ${age} ms old (max ${settings.maxAgeMs}); last failure: ${lastFailure}` : lastFailure);
      }
      const rate = last!.rates[token];
      if (rate === undefined) throw new PriceUnavailableError(token, 'the price source does not quote this token');
      return rate;
    },
    asOf() {
      const now = clock.now().getTime();
      if (ageOf(last, now) > refreshAfterMs) void refresh(now);
      return last?.asOf;
    },
    /** Fetches now (start-up warm-up, tests). */
    refresh: () => refresh(clock.now().getTime()),
  };
}
