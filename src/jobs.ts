/**
 * Every background job of the worker role, one line per module, wired like services.ts. Each job
 * is defined in its module's job.ts; this list is composition (it imports the modules, so it
 * cannot live in src/platform/, which knows none of them).
 */
import { depositSweepJob, depositWatcherJob } from './modules/deposits/job.ts';
import { lookupTablesJob } from './modules/lookup-tables/job.ts';
import { idempotencyCleanupJob } from './platform/idempotency/job.ts';
import type { Metrics } from './http/metrics.ts';
import { settlementJob } from './modules/ledger/job.ts';
import { settlementPayoutsJob } from './modules/settlement-payouts/job.ts';
import { webhookDeliveryJob, webhookMaintenanceJob } from './modules/webhooks/job.ts';
import type { DispatcherLog } from './modules/webhooks/dispatcher.ts';
import type { RuntimeConfig } from './runtime-config.ts';
import type { Services } from './services.ts';
import type { WorkerJob } from './platform/worker-job.ts';
import { withJobMetrics } from './platform/worker-metrics.ts';
import { orderStepsJob, pixReconciliationJob } from './modules/orders/job.ts';
import { sandboxBanksJob } from './modules/sandbox/job.ts';
import { payoutBatchesJob } from './modules/payout-batches/job.ts';
import { standingDepositsJob } from './modules/standing-addresses/job.ts';
import { disputesJob } from './modules/disputes/job.ts';
import { sponsorBalanceJob, type TreasuryJobLog, treasuryReconciliationJob } from './modules/treasury/job.ts';
import { registerSponsorMetrics, treasuryMetrics } from './modules/treasury/metrics.ts';

/** `metrics`: the process's one registry, shared with the api role when both run here. */
export function createWorkerJobs(services: Services, config: RuntimeConfig, metrics: Metrics, log?: DispatcherLog & TreasuryJobLog): WorkerJob[] {
  const { sponsorBalance } = services;
  if (sponsorBalance) registerSponsorMetrics(metrics.registry, sponsorBalance);
  // Each job's last success, lag and failures on the registry (platform/worker-metrics.ts).
  return withJobMetrics(metrics.registry, [
    idempotencyCleanupJob(services.idempotency, { ttlHours: config.idempotencyKeyTtlHours }),
    webhookDeliveryJob(services.webhookDelivery, config.webhooks, metrics, log),
    webhookMaintenanceJob(services.webhookDelivery),
    pixReconciliationJob(services.reconciliation, config.reconciliation.intervalMs),
    disputesJob(services.disputes),
    orderStepsJob(services.orderSteps, config.orders.workerIntervalMs, log),
    payoutBatchesJob(services.payoutBatches.funding, config.orders.workerIntervalMs),
    standingDepositsJob(services.standingDeposits, config.orders.workerIntervalMs),
    // The sandbox chain has no treasury on chain: nothing to reconcile.
    ...(services.treasuryReader.onChain ? [treasuryReconciliationJob(services.treasury, config.treasury.reconciliationIntervalMs, treasuryMetrics(metrics.registry), log)] : []),
    // With a Solana node (SOLANA_RPC_URL): the sponsor pays its sweeps and sponsored transactions there.
    ...(sponsorBalance ? [sponsorBalanceJob(sponsorBalance, config.treasury.reconciliationIntervalMs)] : []),
    // Only with CHAIN_PROVIDER=solana-rpc: the sandbox chain's deposits come from its drivers.
    ...(services.depositWatcher ? [depositWatcherJob(services.depositWatcher, config.chain.depositWatchIntervalMs)] : []),
    // Credited deposits swept to the treasury: only with solana-rpc too (the sandbox chain's tokens never leave its tables).
    ...(services.sweeper ? [depositSweepJob(services.sweeper, config.chain.depositWatchIntervalMs)] : []),
    // The treasury's lookup tables: with solana-rpc and CHAIN_LOOKUP_TABLES.
    ...(services.lookupTables ? [lookupTablesJob(services.lookupTables)] : []),
    ...(config.settlements.enabled ? [settlementJob(services.ledger, config.settlements.timeOfDay, services.clock)] : []),
    // Settlements are paid by PIX whenever made (a sandbox or an operator's run too), so this runs whatever SETTLEMENT_ENABLED says.
    settlementPayoutsJob(services.settlementPayouts),
    ...(config.sandboxEnabled ? [sandboxBanksJob(services.sandbox, config.orders.workerIntervalMs)] : []),
  ]);
}
