/**
 * The treasury's gauges, on the process's one registry, set by each reconciliation run; and the
 * sponsor's, read from its last balance reading when Prometheus scrapes. Registering twice on one
 * registry returns the same gauges.
 */
import { Gauge, type Registry } from 'prom-client';
import type { SponsorBalance } from './sponsor-balance.ts';

export interface TreasuryMetrics {
  balance: Gauge<'wallet' | 'currency'>;
  lowBalance: Gauge<'wallet' | 'currency'>;
  drift: Gauge<'wallet' | 'currency'>;
  driftUnexplained: Gauge<'wallet' | 'currency'>;
}

const cache = new WeakMap<Registry, TreasuryMetrics>();

export function treasuryMetrics(registry: Registry): TreasuryMetrics {
  const existing = cache.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: TreasuryMetrics = {
    balance: new Gauge({ name: 'treasury_balance', help: "A treasury wallet's on-chain balance in whole units (SOL, each token), as of the last reconciliation", labelNames: ['wallet', 'currency'], registers }),
    lowBalance: new Gauge({ name: 'treasury_low_balance', help: '1 when the on-chain balance is below its TREASURY_LOW_BALANCE threshold, else 0', labelNames: ['wallet', 'currency'], registers }),
    drift: new Gauge({ name: 'treasury_drift', help: "A treasury wallet's on-chain balance less its token_treasury in the ledger, in whole units, as of the last reconciliation", labelNames: ['wallet', 'currency'], registers }),
    driftUnexplained: new Gauge({
      name: 'treasury_drift_unexplained',
      help: '1 when the last reconciliation found a drift the transfers and sweeps in flight do not explain (logged as "treasury drift"), else 0',
      labelNames: ['wallet', 'currency'],
      registers,
    }),
  };
  cache.set(registry, metrics);
  return metrics;
}

const sponsorRegistered = new WeakSet<Registry>();

/**
 * `sponsor_balance_sol{address}`, `sponsor_low_balance{address}` (from the last reading; absent
 * before the first) and `sponsor_low_balance_threshold_sol`, once per registry.
 */
export function registerSponsorMetrics(registry: Registry, sponsor: Pick<SponsorBalance, 'last' | 'threshold'>): void {
  if (sponsorRegistered.has(registry)) return;
  sponsorRegistered.add(registry);
  const registers = [registry];
  new Gauge({
    name: 'sponsor_balance_sol',
    help: "The sponsor's SOL (it pays deposit sweeps and sponsored transactions), as of its last reading (every TREASURY_RECONCILIATION_INTERVAL_MS, and by the sweeps)",
    labelNames: ['address'],
    registers,
    collect() {
      const reading = sponsor.last();
      this.reset();
      if (reading) this.set({ address: reading.address }, Number(reading.balance));
    },
  });
  new Gauge({
    name: 'sponsor_low_balance',
    help: "1 when the sponsor's SOL is below SPONSOR_LOW_BALANCE (or 0), else 0, as of its last reading",
    labelNames: ['address'],
    registers,
    collect() {
      const reading = sponsor.last();
      this.reset();
      if (reading) this.set({ address: reading.address }, reading.low ? 1 : 0);
    },
  });
  new Gauge({ name: 'sponsor_low_balance_threshold_sol', help: 'SPONSOR_LOW_BALANCE: the SOL below which the sponsor is reported low', registers }).set(Number(sponsor.threshold));
}
