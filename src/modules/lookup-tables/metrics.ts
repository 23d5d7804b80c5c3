/**
 * The lookup tables' counter, on the process's one registry: each extension settled, by how it
 * ended. One that FAILED or EXPIRED cost a fee or nothing and appended nothing (its addresses wait
 * for the next); several in a row mean the treasury cannot extend its tables (alerts.md).
 * Registering twice on one registry returns the same counter.
 */
import { Counter, type Registry } from 'prom-client';

export interface LookupTableMetrics {
  /** An extension settled: CONFIRMED (finalized and saved), FAILED (landed with an error) or EXPIRED (provably never lands). */
  settled: Counter<'outcome'>;
}

const cache = new WeakMap<Registry, LookupTableMetrics>();

export function lookupTableMetrics(registry: Registry): LookupTableMetrics {
  const existing = cache.get(registry);
  if (existing) return existing;
  const metrics: LookupTableMetrics = {
    settled: new Counter({
      name: 'chain_lookup_table_extensions_total',
      help: "Extensions of the treasury's address lookup tables settled, by outcome: CONFIRMED (finalized), FAILED (landed with an error) or EXPIRED (never landed)",
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
  // Every outcome from 0, so that a rate over the first one is not lost.
  for (const outcome of ['CONFIRMED', 'FAILED', 'EXPIRED']) metrics.settled.inc({ outcome }, 0);
  cache.set(registry, metrics);
  return metrics;
}
