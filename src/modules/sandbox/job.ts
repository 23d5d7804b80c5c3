/** The sandbox banks: settle what the simulated PSP and chain have due (sandbox mode only). */
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { SandboxDriver } from './service.ts';

export function sandboxBanksJob(sandbox: Pick<SandboxDriver, 'settlePass'>, intervalMs: number): WorkerJob {
  return { name: 'sandbox-banks', intervalMs, run: () => sandbox.settlePass() };
}
