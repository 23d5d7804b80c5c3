/**
 * The treasury's gauges, on the process's one registry, set by each reconciliation run.
 * Registering twice on one registry returns the same gauges.
 */
import { Gauge, type Registry } from 'prom-client';

export interface TreasuryMetrics {
  balance: Gauge<'currency'>;
  lowBalance: Gauge<'currency'>;
  drift: Gauge<'currency'>;
}

const cache = new WeakMap<Registry, TreasuryMetrics>();

export function treasuryMetrics(registry: Registry): TreasuryMetrics {
  const existing = cache.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: TreasuryMetrics = {
    balance: new Gauge({ name: 'treasury_balance', help: "The treasury's on-chain balance in whole units (SOL, each token), as of the last reconciliation", labelNames: ['currency'], registers }),
    lowBalance: new Gauge({ name: 'treasury_low_balance', help: '1 when the on-chain balance is below its TREASURY_LOW_BALANCE threshold, else 0', labelNames: ['currency'], registers }),
    drift: new Gauge({ name: 'treasury_drift', help: "On-chain balance less the ledger's token_treasury, in whole units, as of the last reconciliation", labelNames: ['currency'], registers }),
  };
  cache.set(registry, metrics);
  return metrics;
}
