/**
 * The orders' chain-transfer alerts, on the process's one registry. Registering twice on one
 * registry returns the same counters.
 */
import { Counter, type Registry } from 'prom-client';

export interface TransferMetrics {
  /** A PAYIN transfer given up and the order sent to REFUNDING: `expired` (CHAIN_TRANSFER_MAX_ATTEMPTS transactions expired unlanded) or `refused` (prepareTransfer refused it). */
  abandoned: Counter<'reason'>;
  /** An expired, never-landed transfer rebuilt as a new transaction. */
  rebuilt: Counter;
}

const cache = new WeakMap<Registry, TransferMetrics>();

export function transferMetrics(registry: Registry): TransferMetrics {
  const existing = cache.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: TransferMetrics = {
    abandoned: new Counter({
      name: 'order_chain_transfers_abandoned_total',
      help: 'PAYIN token transfers given up, the order refunded: expired (every allowed transaction expired unlanded) or refused (the chain adapter refused it before signing)',
      labelNames: ['reason'],
      registers,
    }),
    rebuilt: new Counter({ name: 'order_chain_transfer_rebuilds_total', help: 'PAYIN token transfers rebuilt after their transaction provably expired without landing', registers }),
  };
  cache.set(registry, metrics);
  return metrics;
}
