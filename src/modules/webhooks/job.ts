/**
 * The worker job: a continuous pipeline of independent attempts (dispatcher.ts). A pass fans out
 * newly recorded events and fills the free slots; it runs at once when an event commits or
 * deliveries become due (notifications), and every WEBHOOK_WORKER_INTERVAL_MS as a fallback sweep
 * (retries whose time has come, anything a lost notification missed).
 */
import type { WebhookSettings } from '../../config.ts';
import { OUTBOX_CHANNEL } from '../../platform/outbox.ts';
import type { Metrics } from '../../http/metrics.ts';
import type { WorkerJob } from '../../platform/worker-job.ts';
import { DELIVERIES_CHANNEL } from './delivery.ts';
import { createDispatcher, type DispatcherLog } from './dispatcher.ts';
import { deliveryMetrics } from './metrics.ts';
import type { WebhooksService } from './service.ts';

export function webhookDeliveryJob(webhooks: WebhooksService, settings: WebhookSettings, metrics: Metrics, log?: DispatcherLog): WorkerJob {
  const instruments = deliveryMetrics(metrics.registry);
  const dispatcher = createDispatcher({ engine: webhooks.engine, settings, metrics: instruments, ...(log ? { log } : {}) });
  let lastGauge = 0;
  return {
    name: 'webhook-delivery',
    intervalMs: settings.workerIntervalMs,
    wakeOn: [OUTBOX_CHANNEL, DELIVERIES_CHANNEL],
    async run(signal) {
      await dispatcher.run(signal);
      // The pending gauge is a count over the table: at most once per sweep interval.
      if (Date.now() - lastGauge >= settings.workerIntervalMs) {
        lastGauge = Date.now();
        instruments.pending.set(await webhooks.countPending());
      }
    },
    drain: () => dispatcher.drain(),
  };
}

/** Every minute: disable endpoints failing too long, purge what is past retention. */
export function webhookMaintenanceJob(webhooks: WebhooksService, intervalMs = 60_000): WorkerJob {
  return {
    name: 'webhook-maintenance',
    intervalMs,
    async run(signal) {
      await webhooks.maintenance.disableFailingEndpoints();
      await webhooks.maintenance.purge(signal);
    },
  };
}
