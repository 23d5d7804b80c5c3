/** The deposit watcher's job (registered by src/jobs.ts only with CHAIN_PROVIDER=solana-rpc). */
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { DepositWatcher } from './watcher.ts';

export function depositWatcherJob(watcher: Pick<DepositWatcher, 'runPass'>, intervalMs: number): WorkerJob {
  return { name: 'deposit-watcher', intervalMs, run: (signal) => watcher.runPass(signal).then(() => undefined) };
}
