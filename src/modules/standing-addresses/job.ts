/** The standing addresses' job: credited deposits made PAYOUTs (or held), a chunk at a time. */
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { StandingDeposits } from './deposits.ts';

export function standingDepositsJob(deposits: Pick<StandingDeposits, 'runPass'>, intervalMs: number): WorkerJob {
  return { name: 'standing-deposits', intervalMs, run: () => deposits.runPass().then(() => undefined) };
}
