/**
 * Every background job of the worker role, one line per module, wired like services.ts.
 */
import { idempotencyCleanupJob } from './modules/idempotency/job.ts';
import type { Metrics } from './http/metrics.ts';
import { settlementJob } from './modules/ledger/job.ts';
import { webhookDeliveryJob, webhookMaintenanceJob } from './modules/webhooks/job.ts';
import type { DispatcherLog } from './modules/webhooks/dispatcher.ts';
import type { RuntimeConfig } from './runtime-config.ts';
import type { Services } from './services.ts';
import type { WorkerJob } from './lib/worker-job.ts';
import { ORDER_STEPS_CHANNEL } from './modules/orders/transitions.ts';

/** `metrics`: the process's one registry, shared with the api role when both run here. */
export function createWorkerJobs(services: Services, config: RuntimeConfig, metrics: Metrics, log?: DispatcherLog): WorkerJob[] {
  return [
    idempotencyCleanupJob(services.idempotency, { ttlHours: config.idempotencyKeyTtlHours }),
    webhookDeliveryJob(services.webhookDelivery, config.webhooks, metrics, log),
    webhookMaintenanceJob(services.webhookDelivery),
    { name: 'pix-reconciliation', intervalMs: config.reconciliation.intervalMs, run: () => services.reconciliation.runPass().then(() => undefined) },
    {
      name: 'order-steps',
      intervalMs: config.orders.workerIntervalMs,
      wakeOn: [ORDER_STEPS_CHANNEL],
      run: (signal) => services.orderSteps.fill({ signal, onError: (err) => log?.error({ err }, 'order step claim failed') }).then(() => undefined),
      drain: () => services.orderSteps.drain(),
    },
    ...(config.settlements.enabled ? [settlementJob(services.ledger, config.settlements.timeOfDay, services.clock)] : []),
    ...(config.sandboxEnabled
      ? [{ name: 'sandbox-banks', intervalMs: config.orders.workerIntervalMs, run: () => services.sandbox.settlePass() }]
      : []),
  ];
}
