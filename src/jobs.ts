/**
 * Every background job of the worker role, one line per module, wired like services.ts.
 */
import { idempotencyCleanupJob } from './http/idempotency.ts';
import type { Metrics } from './http/metrics.ts';
import { settlementJob } from './modules/ledger/job.ts';
import { webhookDeliveryJob } from './modules/webhooks/job.ts';
import type { RuntimeConfig } from './runtime-config.ts';
import type { Services } from './services.ts';
import type { WorkerJob } from './lib/worker-job.ts';

/** `metrics`: the process's one registry, shared with the api role when both run here. */
export function createWorkerJobs(services: Services, config: RuntimeConfig, metrics: Metrics): WorkerJob[] {
  return [
    idempotencyCleanupJob(services.idempotency, { ttlHours: config.idempotencyKeyTtlHours }),
    webhookDeliveryJob(services.webhooks, config.webhooks, metrics),
    { name: 'pix-reconciliation', intervalMs: config.reconciliation.intervalMs, run: () => services.reconciliation.runPass().then(() => undefined) },
    { name: 'order-steps', intervalMs: config.orders.workerIntervalMs, run: () => services.orderSteps.runDuePass().then(() => undefined) },
    ...(config.settlements.enabled ? [settlementJob(services.ledger, config.settlements.timeOfDay, services.clock)] : []),
    ...(config.sandboxEnabled
      ? [{ name: 'sandbox-banks', intervalMs: config.orders.workerIntervalMs, run: () => services.sandbox.settlePass() }]
      : []),
  ];
}
