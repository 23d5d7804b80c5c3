/**
 * The dependencies' figures for Prometheus (docs/architecture/dependency-health.md), on the
 * process's one registry: every call to the PSP, the chain's node, the price source and the mail
 * server counted and timed by operation and outcome, and each dependency's state as a gauge.
 * Alert rules name these metrics: keep their names and labels.
 *
 * - `provider_calls_total{provider,operation,outcome}`: provider psp, chain, prices or mail;
 *   operation the port's function (createCharge, sendPix, prepareTransfer, readBalances, getRate,
 *   send…, `probe` for a probe that timed out); outcome ok, refused (answered by refusing this
 *   request: up) or error (not answered);
 * - `provider_call_duration_seconds{provider,operation,outcome}`: the same calls' latency;
 * - `dependency_up{dependency}`: 1 ok, 0.5 degraded, 0 down, for database, psp, chain, prices and
 *   mail (an in-process stand-in is always 1), read when Prometheus scrapes.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { DEPENDENCIES, type DependencyHealth, type DependencyState } from '../platform/dependency-health.ts';

const UP: Record<DependencyState, number> = { ok: 1, degraded: 0.5, down: 0 };
const registered = new WeakSet<Registry>();

export function registerDependencyMetrics(registry: Registry, health: Pick<DependencyHealth, 'onCall' | 'state'>): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  const labelNames = ['provider', 'operation', 'outcome'] as const;
  const calls = new Counter({ name: 'provider_calls_total', help: 'Calls to the PSP, the chain node, the price source and the mail server, by operation and outcome (ok, refused, error)', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'provider_call_duration_seconds',
    help: 'Latency of the calls to the PSP, the chain node, the price source and the mail server, by operation and outcome',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  new Gauge({
    name: 'dependency_up',
    help: 'Each dependency as this process sees it: 1 ok, 0.5 degraded, 0 down',
    labelNames: ['dependency'],
    registers: [registry],
    collect() {
      for (const dependency of DEPENDENCIES) this.set({ dependency }, UP[health.state(dependency)]);
    },
  });
  health.onCall((call) => {
    // The database is a dependency (dependency_up), not a provider: its readiness pings are not calls.
    if (call.dependency === 'database') return;
    const labels = { provider: call.dependency, operation: call.operation, outcome: call.outcome };
    calls.inc(labels);
    duration.observe(labels, call.seconds);
  });
}
