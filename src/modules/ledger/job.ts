import type { Clock } from '../../lib/clock.ts';
import { latestSaoPauloTimeOfDay, parseClockTime } from '../../lib/sao-paulo-time.ts';
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { LedgerService } from './service.ts';

/**
 * The daily settlement (default 00:00 America/Sao_Paulo): every minute, settle everything before
 * the latest scheduled instant. Runs after the first find nothing left, so a restarted or second
 * worker neither skips a day nor settles twice.
 */
export function settlementJob(ledger: Pick<LedgerService, 'runSettlements'>, timeOfDay: string, clock: Clock): WorkerJob {
  const minuteOfDay = parseClockTime(timeOfDay);
  return {
    name: 'daily-settlements',
    intervalMs: 60_000,
    run: async () => {
      await ledger.runSettlements(latestSaoPauloTimeOfDay(clock.now(), minuteOfDay));
    },
  };
}
