/**
 * The HTTP price source (src/adapters/prices/http.ts) against a price server on loopback: one
 * fetch serves many prices, a stale or missing price is PriceUnavailableError (never a guess), a
 * source that goes down is trusted only until the maximum age, and the spread is exact.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpPriceSource } from '../../src/adapters/prices/http.ts';
import { PriceUnavailableError } from '../../src/adapters/prices/port.ts';
import { rateWithSpread, withSpread } from '../../src/adapters/prices/spread.ts';
import { Registry } from 'prom-client';
import { registerPriceMetrics } from '../../src/modules/quotes/price-metrics.ts';
import { TestClock } from '../helpers/app.ts';
import { type PriceServer, startPriceServer } from '../helpers/price-server.ts';

const T0 = new Date('2026-11-24T03:00:00.000Z');
const MAX_AGE_MS = 10_000;

describe('HTTP price source', () => {
  let server: PriceServer;
  let clock: TestClock;
  const source = () => createHttpPriceSource({ clock, settings: { url: server.url, maxAgeMs: MAX_AGE_MS, timeoutMs: 1000 } });

  beforeAll(async () => {
    server = await startPriceServer();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    clock = new TestClock(T0);
    await server.up(); // after a test that took it down
    server.answer({ rates: { USDC: '5.4012' }, timestamp: T0.toISOString() });
    server.delayMs = 0;
    server.requests = 0;
  });

  it('serves a fresh price from one fetch, however many callers ask at once', async () => {
    server.delayMs = 50;
    const prices = source();
    const rates = await Promise.all(Array.from({ length: 20 }, (_, i) => prices.getRate('USDC', i % 2 ? 'PAYIN' : 'PAYOUT')));
    expect(new Set(rates)).toEqual(new Set(['5.4012']));
    expect(server.requests).toBe(1);
    clock.advance(MAX_AGE_MS / 2); // not yet half as old as allowed: no fetch
    await prices.getRate('USDC', 'PAYIN');
    expect(server.requests).toBe(1);
  });

  it('refreshes in the background once half the maximum age has passed, serving the held price meanwhile', async () => {
    const prices = source();
    await prices.getRate('USDC', 'PAYIN');
    server.delayMs = 100;
    server.answer({ rates: { USDC: '5.50' } });
    clock.advance(MAX_AGE_MS / 2 + 1);
    expect(await prices.getRate('USDC', 'PAYIN')).toBe('5.4012'); // did not wait for the refresh
    expect(await prices.getRate('USDC', 'PAYIN')).toBe('5.4012'); // and did not start a second one
    await prices.refresh();
    expect(server.requests).toBe(2);
    expect(await prices.getRate('USDC', 'PAYIN')).toBe('5.50');
  });

  it('refuses a price the source itself dates older than the maximum age', async () => {
    server.answer({ rates: { USDC: '5.40' }, timestamp: new Date(T0.getTime() - MAX_AGE_MS - 1).toISOString() });
    await expect(source().getRate('USDC', 'PAYIN')).rejects.toThrow(PriceUnavailableError);
    server.answer({ rates: { USDC: '5.40' }, timestamp: new Date(T0.getTime() - MAX_AGE_MS).toISOString() });
    expect(await source().getRate('USDC', 'PAYIN')).toBe('5.40'); // exactly the maximum age is still usable
  });

  it('keeps pricing while the source is down only until the held price reaches the maximum age', async () => {
    const prices = source();
    await prices.getRate('USDC', 'PAYOUT');
    await server.down();
    clock.advance(MAX_AGE_MS - 1);
    expect(await prices.getRate('USDC', 'PAYOUT')).toBe('5.4012');
    await prices.refresh(); // the background refresh fails
    clock.advance(2);
    const refused = await prices.getRate('USDC', 'PAYOUT').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(PriceUnavailableError);
    expect((refused as PriceUnavailableError).reason).toMatch(/old/);
    await server.up();
    clock.advance(1000); // the next attempt is at least a second after the last
    server.answer({ rates: { USDC: '5.41' }, timestamp: clock.now().toISOString() });
    expect(await prices.getRate('USDC', 'PAYOUT')).toBe('5.41');
  });

  it('does not hammer a source that is down: at most one attempt a second', async () => {
    await server.down();
    const prices = source();
    for (let i = 0; i < 10; i++) await expect(prices.getRate('USDC', 'PAYIN')).rejects.toThrow(PriceUnavailableError);
    clock.advance(1000);
    await server.up();
    server.answer({ rates: { USDC: '5.40' } });
    expect(await prices.getRate('USDC', 'PAYIN')).toBe('5.40');
    expect(server.requests).toBe(1);
  });

  it('refuses answers that are not decimal strings, not JSON, errors, and tokens it does not quote', async () => {
    for (const [body, status] of [
      [{ rates: { USDC: 5.4 } }, 200],
      [{ rates: { USDC: '-5.40' } }, 200],
      [{ rates: { USDC: '0' } }, 200],
      [{ rates: { USDC: '5.40' }, timestamp: 'yesterday' }, 200],
      [{ USDC: '5.40' }, 200],
      ['<html>', 200],
      [{ rates: { USDC: '5.40' } }, 500],
    ] as const) {
      server.answer(body, status);
      await expect(source().getRate('USDC', 'PAYIN'), JSON.stringify(body)).rejects.toThrow(PriceUnavailableError);
    }
    server.answer({ rates: { USDC: '5.40' } });
    await expect(source().getRate('EURC', 'PAYIN')).rejects.toThrow(/does not quote/);
  });

  it("applies the spread in the platform's favour on each side, exactly, to 8 decimals", async () => {
    expect(rateWithSpread('5.40', '0.01', 'PAYIN')).toBe('5.454');
    expect(rateWithSpread('5.40', '0.01', 'PAYOUT')).toBe('5.346');
    // 5.12345678 × 1.003 = 5.13882715034 → up; × 0.997 = 5.10808640966 → down.
    expect(rateWithSpread('5.12345678', '0.003', 'PAYIN')).toBe('5.13882716');
    expect(rateWithSpread('5.12345678', '0.003', 'PAYOUT')).toBe('5.1080864');
    // A source's 9th decimal is rounded against the customer even without a spread.
    expect(rateWithSpread('5.123456781', '0', 'PAYIN')).toBe('5.12345679');
    expect(rateWithSpread('5.123456789', '0', 'PAYOUT')).toBe('5.12345678');
    const spread = withSpread(source(), '0.0125');
    expect(await spread.getRate('USDC', 'PAYIN')).toBe('5.468715');
    expect(await spread.getRate('USDC', 'PAYOUT')).toBe('5.333685');
  });
  it('tells the age of its price to the price_age_seconds gauge, asking the source when a refresh is due even with no order', async () => {
    const raw = source();
    const registry = new Registry();
    registerPriceMetrics(registry, withSpread(raw, '0.01'), MAX_AGE_MS, clock);
    const value = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]!.value;
    // None held yet: +Inf, and the scrape started the first fetch (refresh() joins the one in flight).
    expect(await value('price_age_seconds')).toBe(Number.POSITIVE_INFINITY);
    expect(await value('price_max_age_seconds')).toBe(MAX_AGE_MS / 1000);
    await raw.refresh();
    expect(server.requests).toBe(1);
    clock.advance(3000);
    expect(await value('price_age_seconds')).toBe(3);
    expect(server.requests).toBe(1);
    // Past half the maximum age, the scrape refreshes it: a quiet night does not look like a dead source.
    server.answer({ rates: { USDC: '5.41' }, timestamp: new Date(T0.getTime() + 6000).toISOString() });
    clock.advance(3000);
    expect(await value('price_age_seconds')).toBe(6);
    await raw.refresh();
    expect(server.requests).toBe(2);
    expect(await value('price_age_seconds')).toBe(0);
  });
});
