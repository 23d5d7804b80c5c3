/**
 * How old the price source's price is (PRICE_SOURCE=http, src/adapters/prices/http.ts), and the age
 * past which it is never used (PRICE_MAX_AGE_MS): quotes and orders answer 503 PRICE_UNAVAILABLE
 * when the first passes the second. Read when Prometheus scrapes; reading it starts a refresh when
 * one is due, so a quiet night does not look like a dead source. A source of fixed rates (the
 * sandbox's) has no age: nothing is registered.
 */
import { Gauge, type Registry } from 'prom-client';
import type { PriceSource } from '../../adapters/prices/port.ts';
import type { Clock } from '../../lib/clock.ts';

const registered = new WeakSet<Registry>();

/** Registers `price_age_seconds` and `price_max_age_seconds` on `registry`, once, for a source with an age. */
export function registerPriceMetrics(registry: Registry, prices: Pick<PriceSource, 'asOf'>, maxAgeMs: number, clock: Clock): void {
  const { asOf } = prices;
  if (!asOf || registered.has(registry)) return;
  registered.add(registry);
  new Gauge({
    name: 'price_age_seconds',
    help: 'Age of the price the price source holds (the older of its receipt and its timestamp); +Inf before the first',
    registers: [registry],
    collect() {
      const at = asOf();
      this.set(at === undefined ? Number.POSITIVE_INFINITY : Math.max(0, clock.now().getTime() - at) / 1000);
    },
  });
  new Gauge({ name: 'price_max_age_seconds', help: 'PRICE_MAX_AGE_MS in seconds: an older price is never used (503 PRICE_UNAVAILABLE)', registers: [registry] }).set(maxAgeMs / 1000);
}
