import type { WorkerJob } from '../../platform/worker-job.ts';
import type { SettlementPayouts } from './payouts.ts';

/**
 * Settlements' PIX to their merchants (payouts.ts): every few seconds, the due ones are claimed
 * and stepped (sent under the stored idempotency key, or their PSP status asked).
 */
export function settlementPayoutsJob(payouts: Pick<SettlementPayouts, 'runDue'>, intervalMs = 5_000): WorkerJob {
  return {
    name: 'settlement-payouts',
    intervalMs,
    run: async () => {
      await payouts.runDue();
    },
  };
}
