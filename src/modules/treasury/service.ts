/**
 * The platform's treasury (docs/architecture/treasury.md): operators' fundings, which tell the
 * books the opening balance; the operators' view of balances on chain and in the ledger; and the
 * reconciliation of the two, run by the worker.
 */
import { ChainUnavailableError } from '../../adapters/chain/transactions-port.ts';
import { type TreasuryBalanceReader, type WalletBalances, totalOf } from '../../adapters/chain/treasury-port.ts';
import type { Db, Trx } from '../../db/database.ts';
import { AppError, invalidField, providerUnavailable } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { decimal } from '../../lib/money.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import type { LedgerService } from '../ledger/service.ts';
import { type Liquidity, onChainOfRun } from './liquidity.ts';
import { type ReconciliationRunRow, type TokenSum, treasuryRepo as repo } from './repo.ts';
import { SOL, driftOf, isLowBalance, isTransientDrift, lookupTableExtensionMaxSol } from './rules.ts';

const SOL_DECIMALS = 9;

export interface TreasuryDeps {
  db: Db;
  clock: Clock;
  reader: TreasuryBalanceReader;
  ledger: Pick<LedgerService, 'postTreasuryFunding' | 'postTreasuryWithdrawal' | 'treasuryWalletBalances' | 'lookupTableRent'>;
  liquidity: Pick<Liquidity, 'remember'>;
  /** CHAIN_TREASURY_WALLETS: fundings and withdrawals name one of wallets 1 to this (decision 0057). */
  walletCount: number;
  /** Token symbol → decimals (SUPPORTED_TOKENS); SOL is always known, with 9. */
  tokens: Record<string, number>;
  /** Currency → threshold in whole units (TREASURY_LOW_BALANCE). */
  lowBalance: Record<string, string>;
  /** The most SOL one PAYIN transfer in flight can have cost, not yet posted (rules.ts maxSolPerTransfer). */
  solPerTransfer: string;
}

export interface FundingInput {
  currency: string;
  amount: string;
  reference: string;
  note?: string;
  /** The treasury wallet (decision 0057); 1 when absent. */
  wallet?: number;
}

type FundingRow = NonNullable<Awaited<ReturnType<typeof repo.fundingByReference>>>;

const toFunding = (row: FundingRow) => ({
  id: row.id,
  reference: row.reference,
  wallet: row.wallet,
  currency: row.currency,
  amount: decimal(row.amount).toString(),
  note: row.note,
  createdAt: row.created_at.toISOString(),
});
export type Funding = ReturnType<typeof toFunding>;

/** One currency of one treasury wallet as a reconciliation saw it. */
export interface CurrencyReconciliation {
  wallet: number;
  currency: string;
  onChain: string;
  ledger: string;
  drift: string;
  inFlightAmount: string;
  /** Not explained by the transfers in flight. */
  drifted: boolean;
  low: boolean;
}

export interface ReconciliationResult {
  runId: string;
  address: string;
  /** PAYIN transfers sent and not yet COMPLETED, and credited deposits not yet swept. */
  inFlightTransfers: number;
  driftFound: boolean;
  currencies: CurrencyReconciliation[];
}

const toReconciliation = (run: ReconciliationRunRow) => ({
  id: run.id,
  startedAt: run.started_at.toISOString(),
  finishedAt: run.finished_at.toISOString(),
  inFlightTransfers: run.in_flight_transfers,
  driftFound: run.drift_found,
  currencies: run.balances.map((b) => ({ wallet: b.wallet, currency: b.currency, onChain: decimal(b.on_chain).toString(), ledger: decimal(b.ledger).toString(), drift: decimal(b.drift).toString(), inFlightAmount: decimal(b.in_flight_amount).toString() })),
});

const byToken = (sums: TokenSum[]) => new Map(sums.map((sum): [string, TokenSum] => [sum.token, sum]));

export function createTreasuryService(deps: TreasuryDeps) {
  const { db, clock, reader, ledger } = deps;
  const decimalsOf = (currency: string) => (currency === SOL ? SOL_DECIMALS : deps.tokens[currency]);

  /** The configured wallets: the count only grows (platform-keys refuses a start below the stored keys), so no other has books. */
  const wallets = Array.from({ length: deps.walletCount }, (_, i) => i + 1);

  /** Every currency worth showing: what the chain reads, what the books hold, what has a threshold. */
  const currenciesOf = (...sources: Iterable<string>[]) => [...new Set([...reader.currencies, ...sources.flatMap((s) => [...s]), ...Object.keys(deps.lowBalance)])].sort();

  /** The funding's amount at the currency's decimals, and its wallet. */
  function checkFunding(input: FundingInput) {
    const places = decimalsOf(input.currency);
    if (places === undefined) throw invalidField('body.currency', `must be SOL or a supported token (${Object.keys(deps.tokens).join(', ')})`);
    const amount = decimal(input.amount);
    if (!amount.isPositive() || amount.isZero()) throw invalidField('body.amount', 'must be greater than 0');
    if (amount.decimalPlaces() > places) throw invalidField('body.amount', `must have at most ${places} decimals for ${input.currency}`);
    const wallet = input.wallet ?? 1;
    if (!Number.isInteger(wallet) || wallet < 1 || wallet > deps.walletCount) throw invalidField('body.wallet', `must be a treasury wallet, 1 to ${deps.walletCount} (CHAIN_TREASURY_WALLETS)`);
    return { amount: amount.toFixed(places), wallet };
  }

  /**
   * A withdrawal two operators propose (approvals/actions.ts TREASURY_WITHDRAWAL), checked when
   * proposed: the amount as a funding's (currency, decimals), an unused reference, and no more
   * than the books say the treasury holds of that currency. Answers the books' balance before.
   */
  async function checkWithdrawal(input: FundingInput, executor: Db = db): Promise<{ amount: string; wallet: number; ledgerBalance: string }> {
    const { amount, wallet } = checkFunding(input);
    if (await repo.withdrawalByReference(executor, input.reference)) throw new AppError('CONFLICT', 'This reference already names a withdrawal', { reference: input.reference });
    const ledgerBalance = (await ledger.treasuryWalletBalances(executor)).get(wallet)?.get(input.currency) ?? '0';
    if (decimal(amount).gt(ledgerBalance)) throw new AppError('CONFLICT', `The books hold ${ledgerBalance} ${input.currency} in treasury wallet ${wallet}: a withdrawal of ${amount} would leave them negative`, { ledgerBalance, wallet });
    return { amount, wallet, ledgerBalance };
  }

  return {
    /**
     * Records an operator's funding of the treasury and posts it (token_treasury +X /
     * treasury_capital −X), audited, in one transaction. Once per reference: the same funding
     * again answers the first (`created: false`); another one under a used reference is 409.
     */
    async fund(input: FundingInput, by: AuditActor): Promise<{ funding: Funding; created: boolean }> {
      const { amount, wallet } = checkFunding(input);
      const replay = (existing: FundingRow) => {
        if (existing.currency !== input.currency || !decimal(existing.amount).eq(amount) || existing.wallet !== wallet) {
          throw new AppError('CONFLICT', 'This reference already names another funding', { reference: input.reference, existingFundingId: existing.id });
        }
        return { funding: toFunding(existing), created: false };
      };
      const known = await repo.fundingByReference(db, input.reference);
      if (known) return replay(known);
      const outcome = await inTransaction(db, async (trx) => {
        const now = clock.now();
        const row = await repo.insertFunding(trx, { id: newId(), reference: input.reference, wallet, currency: input.currency, amount, note: input.note ?? null, actor: by.actor, created_at: now });
        if (!row) return undefined;
        await ledger.postTreasuryFunding(trx, { fundingId: row.id, currency: row.currency, amount, wallet, at: now });
        await recordAudit(trx, by, { action: 'treasury.fund', targetType: 'treasury_funding', targetId: row.id, details: { reference: row.reference, wallet, currency: row.currency, amount, note: row.note } });
        return { funding: toFunding(row), created: true };
      });
      // A concurrent funding of the same reference won the insert: answer it as a replay.
      return outcome ?? replay((await repo.fundingByReference(db, input.reference))!);
    },

    checkWithdrawal,

    /**
     * Records an approved withdrawal and posts it (treasury_capital +X / token_treasury −X), in the
     * approval's transaction, checked again there. The tokens move on chain with the treasury's
     * key, outside the service; this keeps the books with the chain (else: drift).
     */
    async withdraw(trx: Trx, input: FundingInput, by: AuditActor & { approvalId: string }) {
      // Checked again in the approval's transaction (its reads too: one connection on PGlite).
      const { amount, wallet, ledgerBalance } = await checkWithdrawal(input, trx);
      const now = clock.now();
      const row = await repo.insertWithdrawal(trx, { id: newId(), reference: input.reference, wallet, currency: input.currency, amount, note: input.note ?? null, approval_id: by.approvalId, created_at: now });
      if (!row) throw new AppError('CONFLICT', 'This reference already names a withdrawal', { reference: input.reference });
      await ledger.postTreasuryWithdrawal(trx, { withdrawalId: row.id, currency: row.currency, amount, wallet, at: now });
      await recordAudit(trx, by, { action: 'treasury.withdraw', targetType: 'treasury_withdrawal', targetId: row.id, details: { reference: row.reference, wallet, currency: row.currency, amount, note: input.note ?? null, approvalId: by.approvalId, before: { ledgerBalance }, after: { ledgerBalance: decimal(ledgerBalance).minus(amount).toFixed() } } });
      return { id: row.id, reference: row.reference, wallet, currency: row.currency, amount, createdAt: now.toISOString() };
    },

    /**
     * The operators' view: balances on chain (read now; the last run's when the node fails) and in
     * the books, drift, thresholds, what PAYINs owe; every wallet's together, then each wallet's.
     */
    async overview() {
      let onChain: WalletBalances | undefined;
      let onChainAsOf: Date | undefined;
      let onChainSource: 'node' | 'last-reconciliation' | 'none' = 'none';
      const [books, { owed, inFlight, inFlightByWallet }, lastRun, tables, rentHeld] = await Promise.all([ledger.treasuryWalletBalances(), repo.openPayins(db), repo.lastRun(db), repo.lookupTables(db), ledger.lookupTableRent()]);
      if (reader.onChain) {
        try {
          onChain = await reader.readBalances();
          onChainAsOf = clock.now();
          onChainSource = 'node';
          deps.liquidity.remember(onChain, onChainAsOf);
        } catch (err) {
          if (!(err instanceof ChainUnavailableError)) throw err;
          if (!lastRun) throw providerUnavailable('The treasury balances could not be read from the chain, and no reconciliation has recorded them yet', err);
          onChain = onChainOfRun(lastRun.balances);
          onChainAsOf = lastRun.finished_at;
          onChainSource = 'last-reconciliation';
        }
      }
      const owedBy = byToken(owed);
      /** One currency's figures: on chain (undefined: not read), in the books, and the transfers in flight. */
      const figures = (currency: string, chain: string | undefined, held: string, sending: Map<string, TokenSum>) => {
        const threshold = deps.lowBalance[currency];
        return {
          currency,
          onChain: chain === undefined ? null : decimal(chain).toString(),
          ledger: held,
          drift: chain === undefined ? null : driftOf(chain, held),
          belowThreshold: chain === undefined || threshold === undefined ? null : isLowBalance(chain, threshold),
          inFlightTransfers: sending.get(currency)?.count ?? 0,
          inFlightAmount: decimal(sending.get(currency)?.amount ?? '0').toString(),
        };
      };
      const onChainTotal = onChain && totalOf(onChain);
      const booksTotal = totalOf(books);
      const inFlightBy = byToken(inFlight);
      const currencies = currenciesOf(booksTotal.keys(), owedBy.keys()).map((currency) => ({
        ...figures(currency, onChainTotal?.get(currency), booksTotal.get(currency) ?? '0', inFlightBy),
        lowBalanceThreshold: deps.lowBalance[currency] ?? null,
        openPayinObligations: decimal(owedBy.get(currency)?.amount ?? '0').toString(),
        openPayins: owedBy.get(currency)?.count ?? 0,
      }));
      const perWallet = wallets.map((wallet) => {
        const held = books.get(wallet) ?? new Map<string, string>();
        const sending = byToken(inFlightByWallet.get(wallet) ?? []);
        return { wallet, address: reader.addresses[wallet - 1] ?? null, currencies: currenciesOf(held.keys()).map((currency) => figures(currency, onChain?.get(wallet)?.get(currency), held.get(currency) ?? '0', sending)) };
      });
      return {
        chain: reader.kind,
        onChain: reader.onChain,
        address: reader.address,
        onChainSource,
        onChainAsOf: onChainAsOf?.toISOString() ?? null,
        currencies,
        wallets: perWallet,
        lastReconciliation: lastRun ? toReconciliation(lastRun) : null,
        lookupTables: { tables: tables.tables, addresses: tables.addresses, rentHeld, extensionInFlight: tables.inFlight !== undefined },
      };
    },

    /** The latest `limit` reconciliation runs, newest first, with what each read per currency. */
    async reconciliations(limit: number) {
      return { data: (await repo.lastRuns(db, limit)).map(toReconciliation) };
    },

    /**
     * One reconciliation: reads the chain, compares each currency with the ledger's
     * token_treasury (PAYIN transfers in flight and credited deposits not yet swept explain a
     * shortfall on chain), records the run. Undefined when the treasury is not on chain (nothing to
     * compare). Throws ChainUnavailableError when the node cannot answer (nothing recorded).
     */
    async reconcile(): Promise<ReconciliationResult | undefined> {
      if (!reader.onChain) return undefined;
      const startedAt = clock.now();
      // In-flight transfers and unswept deposits first: one that completes between the reads is then
      // counted as in flight while already in the ledger (or on chain), which widens the tolerance
      // instead of raising a false drift.
      const [{ inFlightByWallet }, unswept, { inFlight: extension }] = await Promise.all([repo.openPayins(db), repo.unsweptDeposits(db), repo.lookupTables(db)]);
      const [onChain, books] = await Promise.all([reader.readBalances(), ledger.treasuryWalletBalances()]);
      deps.liquidity.remember(onChain, startedAt);
      const unsweptBy = byToken(unswept);
      const count = (sums: TokenSum[]) => sums.reduce((n, sum) => n + sum.count, 0);
      const inFlightTransfers = [...inFlightByWallet.values()].reduce((n, sums) => n + count(sums), count(unswept));
      // Each wallet against its own books (decision 0057).
      const currencies = wallets.flatMap((wallet) => {
        const held = onChain.get(wallet) ?? new Map<string, string>();
        const booked = books.get(wallet) ?? new Map<string, string>();
        const sending = inFlightByWallet.get(wallet) ?? [];
        const inFlightBy = byToken(sending);
        // Deposits are swept into wallet 1, and its key extends the lookup tables.
        const first = wallet === 1;
        return currenciesOf(held.keys(), booked.keys()).map((currency): CurrencyReconciliation => {
          const chain = held.get(currency) ?? '0';
          const ledgerBalance = booked.get(currency) ?? '0';
          const drift = driftOf(chain, ledgerBalance);
          // A credited deposit not yet swept: in the books' treasury, still at its address on chain.
          // Sweeps spend the sponsor's SOL, never the treasury's: they widen no SOL tolerance.
          const sweeping = first ? unsweptBy.get(currency) : undefined;
          // A lookup table extension landed but not yet finalized has left the treasury's SOL, not yet the books'.
          const tables = first && currency === SOL && extension ? { count: 1, amount: lookupTableExtensionMaxSol(extension) } : { count: 0, amount: '0' };
          const inFlightAmount = decimal(inFlightBy.get(currency)?.amount ?? '0').plus(sweeping?.amount ?? '0').plus(tables.amount).toString();
          return {
            wallet,
            currency,
            onChain: decimal(chain).toString(),
            ledger: ledgerBalance,
            drift,
            inFlightAmount,
            drifted: !isTransientDrift(currency, drift, { count: count(sending) + (sweeping?.count ?? 0) + tables.count, amount: inFlightAmount }, deps.solPerTransfer),
            low: held.has(currency) && isLowBalance(chain, deps.lowBalance[currency]),
          };
        });
      });
      const run = { id: newId(), started_at: startedAt, finished_at: clock.now(), address: reader.address!, in_flight_transfers: inFlightTransfers, drift_found: currencies.some((c) => c.drifted) };
      await repo.insertRun(
        db,
        run,
        currencies.map((c) => ({ wallet: c.wallet, currency: c.currency, on_chain: c.onChain, ledger: c.ledger, drift: c.drift, in_flight_amount: c.inFlightAmount })),
      );
      return { runId: run.id, address: run.address, inFlightTransfers, driftFound: run.drift_found, currencies };
    },
  };
}

export type TreasuryService = ReturnType<typeof createTreasuryService>;
