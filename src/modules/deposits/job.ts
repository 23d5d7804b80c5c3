/** The deposit watcher's job (registered by src/jobs.ts only with CHAIN_PROVIDER=solana-rpc). */
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { Sweeper } from './sweeps.ts';
import type { DepositWatcher } from './watcher.ts';

export function depositWatcherJob(watcher: Pick<DepositWatcher, 'runPass' | 'drain'>, intervalMs: number): WorkerJob {
  // drain: the scans a websocket notification started outside the passes.
  return { name: 'deposit-watcher', intervalMs, run: (signal) => watcher.runPass(signal).then(() => undefined), drain: () => watcher.drain() };
}

/** The deposit sweeps' job (registered by src/jobs.ts only with CHAIN_PROVIDER=solana-rpc). */
export function depositSweepJob(sweeper: Pick<Sweeper, 'runPass'>, intervalMs: number): WorkerJob {
  return { name: 'deposit-sweeps', intervalMs, run: (signal) => sweeper.runPass(signal).then(() => undefined) };
}
