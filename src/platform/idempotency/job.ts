/** The worker job that forgets Idempotency-Keys older than the TTL (IDEMPOTENCY_KEY_TTL_HOURS). */
import type { WorkerJob } from '../worker-job.ts';
import type { IdempotencyStore } from './store.ts';

export function idempotencyCleanupJob(store: IdempotencyStore, options: { ttlHours: number; batchSize?: number; intervalMs?: number }): WorkerJob {
  return {
    name: 'idempotency-keys-cleanup',
    intervalMs: options.intervalMs ?? 10 * 60_000,
    async run(signal) {
      await store.purgeExpired(options.ttlHours, { signal, ...(options.batchSize ? { batchSize: options.batchSize } : {}) });
    },
  };
}
