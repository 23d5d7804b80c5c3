/**
 * The treasury reconciliation (docs/architecture/treasury.md): every
 * TREASURY_RECONCILIATION_INTERVAL_MS, each treasury wallet's on-chain balances against its token_treasury in the ledger,
 * recorded as a run; the gauges follow each run, and a low balance or a drift is a warning.
 * Several workers may each run it: runs are records, not claims, so a second one costs a read
 * and a row. On the sandbox chain it does nothing.
 */
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { TreasuryMetrics } from './metrics.ts';
import type { TreasuryService } from './service.ts';
import type { SponsorBalance } from './sponsor-balance.ts';

export interface TreasuryJobLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export function treasuryReconciliationJob(treasury: Pick<TreasuryService, 'reconcile'>, intervalMs: number, metrics: TreasuryMetrics, log?: TreasuryJobLog): WorkerJob {
  return {
    name: 'treasury-reconciliation',
    intervalMs,
    run: async () => {
      const result = await treasury.reconcile();
      if (!result) return;
      for (const c of result.currencies) {
        const labels = { wallet: String(c.wallet), currency: c.currency };
        metrics.balance.set(labels, Number(c.onChain));
        metrics.drift.set(labels, Number(c.drift));
        metrics.lowBalance.set(labels, c.low ? 1 : 0);
        metrics.driftUnexplained.set(labels, c.drifted ? 1 : 0);
        // Amounts and currency only: the treasury's address is public, its key never reaches here.
        if (c.low) log?.warn({ wallet: c.wallet, currency: c.currency, balance: c.onChain }, 'treasury balance below its TREASURY_LOW_BALANCE threshold');
        if (c.drifted) log?.warn({ runId: result.runId, wallet: c.wallet, currency: c.currency, onChain: c.onChain, ledger: c.ledger, drift: c.drift, inFlightTransfers: result.inFlightTransfers }, 'treasury drift: on-chain balance differs from the ledger');
      }
    },
  };
}

/**
 * The sponsor's balance, read on the reconciliation's interval (only with a Solana node: the
 * LiteSVM sandbox's sponsor is funded by the process). The reading logs its own crossings.
 */
export function sponsorBalanceJob(sponsor: Pick<SponsorBalance, 'check'>, intervalMs: number): WorkerJob {
  return { name: 'sponsor-balance', intervalMs, run: () => sponsor.check().then(() => undefined) };
}
