/**
 * Delivery metrics, on the process's one registry (shared with the HTTP metrics when the api and
 * worker roles run together). Registering twice on one registry returns the same metrics.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface DeliveryMetrics {
  attempts: Counter<'event' | 'outcome'>;
  failures: Counter<'event'>;
  exhausted: Counter<'event'>;
  latency: Histogram<'event'>;
  pending: Gauge;
}

const cache = new WeakMap<Registry, DeliveryMetrics>();

export function deliveryMetrics(registry: Registry): DeliveryMetrics {
  const existing = cache.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: DeliveryMetrics = {
    attempts: new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts, by event and outcome (success or failure)',
      labelNames: ['event', 'outcome'],
      registers,
    }),
    failures: new Counter({
      name: 'webhook_delivery_attempt_failures_total',
      help: 'Failed webhook delivery attempts (non-2xx, timeout, network or refused target), by event',
      labelNames: ['event'],
      registers,
    }),
    exhausted: new Counter({
      name: 'webhook_deliveries_failed_total',
      help: 'Deliveries marked FAILED after their last attempt, by event',
      labelNames: ['event'],
      registers,
    }),
    latency: new Histogram({
      name: 'webhook_delivery_attempt_duration_seconds',
      help: 'Duration of one webhook delivery attempt, by event',
      labelNames: ['event'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    pending: new Gauge({
      name: 'webhook_deliveries_pending',
      help: 'Deliveries waiting for an attempt or a retry, as of the last delivery pass',
      registers,
    }),
  };
  cache.set(registry, metrics);
  return metrics;
}
