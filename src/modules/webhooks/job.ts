/** The worker job: delivery passes on an interval, draining what is due before it sleeps. */
import type { WebhookSettings } from '../../config.ts';
import type { Metrics } from '../../http/metrics.ts';
import type { WorkerJob } from '../../lib/worker-job.ts';
import { deliveryMetrics } from './metrics.ts';
import type { WebhooksService } from './service.ts';

/** Passes per run while there is work, so a backlog drains without waiting an interval each time. */
const MAX_PASSES_PER_RUN = 20;

export function webhookDeliveryJob(webhooks: WebhooksService, settings: WebhookSettings, metrics: Metrics): WorkerJob {
  const instruments = deliveryMetrics(metrics.registry);
  return {
    name: 'webhook-delivery',
    intervalMs: settings.workerIntervalMs,
    async run(signal) {
      for (let pass = 0; pass < MAX_PASSES_PER_RUN && !signal.aborted; pass++) {
        const result = await webhooks.runDeliveryPass({ signal, metrics: instruments });
        if (result.claimed === 0) return;
      }
    },
  };
}
