/**
 * The `lookup-tables` job (decision 0056; CHAIN_PROVIDER=solana-rpc with CHAIN_LOOKUP_TABLES): a
 * pass a second (keeper.ts). Several workers may each run it: one extension is in flight at a time
 * (the database's guard), and following it twice settles it once.
 */
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { LookupTableKeeper } from './keeper.ts';

export const LOOKUP_TABLES_INTERVAL_MS = 1_000;

export function lookupTablesJob(keeper: Pick<LookupTableKeeper, 'run'>): WorkerJob {
  return { name: 'lookup-tables', intervalMs: LOOKUP_TABLES_INTERVAL_MS, run: () => keeper.run().then(() => undefined) };
}
