/** The payout batches' job: funded batches' lines made orders a chunk at a time, and unfunded batches expired. */
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { BatchFunding } from './funding.ts';

export function payoutBatchesJob(funding: Pick<BatchFunding, 'runPass'>, intervalMs: number): WorkerJob {
  return { name: 'payout-batches', intervalMs, run: () => funding.runPass().then(() => undefined) };
}
