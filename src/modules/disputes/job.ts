/**
 * The disputes job: reads the PSP's infractions (MED claims are days long: a poll a minute is
 * plenty, and no claim is lost to a missed callback), then runs what is due: accepted claims whose
 * order has since ended, and the MED devolução of charged-back claims.
 */
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { DisputesService } from './service.ts';

export const DISPUTES_SYNC_INTERVAL_MS = 60_000;

export function disputesJob(disputes: Pick<DisputesService, 'syncWithPsp' | 'runDue'>, intervalMs = DISPUTES_SYNC_INTERVAL_MS): WorkerJob {
  return {
    name: 'disputes',
    intervalMs,
    run: async () => {
      await disputes.syncWithPsp();
      await disputes.runDue();
    },
  };
}
