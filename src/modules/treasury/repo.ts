/**
 * The treasury's statements. Every function takes the transaction (or db) it runs in. It reads
 * `orders` for what PAYINs still owe (the liquidity check and reconciliation), `chain_deposits`
 * and `deposit_sweeps` for the deposits not yet swept, and writes only its own tables.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { decimal } from '../../lib/money.ts';
import type { StoredOrderStatus } from '../orders/tables.ts';
import type { TreasuryFundingsTable, TreasuryReconciliationBalancesTable, TreasuryWithdrawalsTable } from './tables.ts';

const FUNDING_COLUMNS = ['id', 'reference', 'wallet', 'currency', 'amount', 'note', 'actor', 'created_at'] as const;

/** PAYIN statuses whose tokens are owed and not yet sent. */
export const OWED_STATUSES: readonly StoredOrderStatus[] = ['AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING'];
/** A PAYIN whose transfer was sent and is not yet COMPLETED: the chain may already show it, the ledger not. */
export const IN_FLIGHT_STATUS: StoredOrderStatus = 'TRANSFERRING';

/** Per token: tokens and orders, as text and count. */
export interface TokenSum {
  token: string;
  amount: string;
  count: number;
}

/**
 * Open PAYINs per token, status and treasury wallet, in one statement over the partial index
 * orders_open_payins_idx (migrations 0024, 0079): type and statuses are literals, so that a generic plan
 * still proves the index's predicate (docs/architecture/orders-indexes.md). A transfer signed before
 * migration 0079 names no wallet: wallet 1's.
 */
async function openPayins(db: Db): Promise<Array<TokenSum & { status: StoredOrderStatus; wallet: number }>> {
  return db
    .selectFrom('orders')
    .select(['token', 'status', sql<number>`coalesce(treasury_wallet, 1)::int`.as('wallet'), sql<string>`coalesce(sum(amount_token), 0)::text`.as('amount'), sql<number>`count(*)::int`.as('count')])
    .where('type', '=', sql.lit<'PAYIN'>('PAYIN'))
    .where(
      'status',
      'in',
      [...OWED_STATUSES, IN_FLIGHT_STATUS].map((status) => sql.lit<StoredOrderStatus>(status)),
    )
    .groupBy(['token', 'status', sql`coalesce(treasury_wallet, 1)`])
    .execute();
}

const sumByToken = (rows: TokenSum[]): TokenSum[] => {
  const sums = new Map<string, TokenSum>();
  for (const row of rows) {
    const sum = sums.get(row.token);
    sums.set(row.token, sum ? { token: row.token, amount: decimal(sum.amount).plus(row.amount).toString(), count: sum.count + row.count } : { ...row });
  }
  return [...sums.values()];
};

export const treasuryRepo = {
  /** The funding, or undefined when its reference was already used (the existing one is then read by `fundingByReference`). */
  insertFunding(db: Db, row: Omit<TreasuryFundingsTable, 'created_at' | 'wallet'> & { created_at: Date; wallet: number }) {
    return db
      .insertInto('treasury_fundings')
      .values(row)
      .onConflict((oc) => oc.column('reference').doNothing())
      .returning(FUNDING_COLUMNS)
      .executeTakeFirst();
  },

  /** The withdrawal, or undefined when its reference was already used. */
  insertWithdrawal(db: Db, row: Omit<TreasuryWithdrawalsTable, 'created_at' | 'wallet'> & { created_at: Date; wallet: number }) {
    return db.insertInto('treasury_withdrawals').values(row).onConflict((oc) => oc.column('reference').doNothing()).returning(['id', 'reference', 'currency']).executeTakeFirst();
  },

  withdrawalByReference(db: Db, reference: string) {
    return db.selectFrom('treasury_withdrawals').select('id').where('reference', '=', reference).executeTakeFirst();
  },

  fundingByReference(db: Db, reference: string) {
    return db.selectFrom('treasury_fundings').select(FUNDING_COLUMNS).where('reference', '=', reference).executeTakeFirst();
  },

  /**
   * Open PAYINs per token: `owed`, tokens of those awaiting or holding their payment, not yet
   * transferred; `inFlight`, those whose transfer was sent and is not yet COMPLETED, and
   * `inFlightByWallet` the same per treasury wallet that signed it (decision 0057).
   */
  async openPayins(db: Db): Promise<{ owed: TokenSum[]; inFlight: TokenSum[]; inFlightByWallet: Map<number, TokenSum[]> }> {
    const rows = await openPayins(db);
    const strip = ({ token, amount, count }: TokenSum) => ({ token, amount: String(amount), count: Number(count) });
    const sending = rows.filter((row) => row.status === IN_FLIGHT_STATUS);
    const inFlightByWallet = new Map<number, TokenSum[]>();
    for (const wallet of new Set(sending.map((row) => Number(row.wallet)))) {
      inFlightByWallet.set(wallet, sumByToken(sending.filter((row) => Number(row.wallet) === wallet).map(strip)));
    }
    return { owed: sumByToken(rows.filter((row) => row.status !== IN_FLIGHT_STATUS).map(strip)), inFlight: sumByToken(sending.map(strip)), inFlightByWallet };
  },

  /**
   * Per token, the PAYOUT deposits credited to the treasury in the books and not yet swept into it
   * on chain (no sweep, or one not landed yet): the chain's treasury holds that much less.
   * A FAILED sweep is not counted: its deposit stays a drift until an operator moves it. A
   * standing address's deposit is in the books once its PAYOUT was credited with it (ORDERED, the
   * order's tx_hash its signature; a held one never is), and has a sweep of its own (migration 0071).
   */
  async unsweptDeposits(db: Db): Promise<TokenSum[]> {
    return db
      .selectFrom('chain_deposits as c')
      .leftJoin('standing_address_deposits as sd', 'sd.signature', 'c.signature')
      .leftJoin('orders as so', 'so.id', 'sd.order_id')
      .leftJoin('deposit_sweeps as s', (join) =>
        join.onRef('s.deposit_address', '=', 'c.deposit_address').on((eb) => eb.or([eb('s.standing_deposit_signature', 'is', null), eb('s.standing_deposit_signature', '=', eb.ref('c.signature'))])),
      )
      .leftJoin('payout_batches as b', 'b.deposit_address', 'c.deposit_address')
      .select(['c.token', sql<string>`coalesce(sum(c.amount), 0)::text`.as('amount'), sql<number>`count(*)::int`.as('count')])
      .where('c.outcome', '=', 'CREDITED')
      .where((eb) => eb.or([eb('sd.signature', 'is', null), eb.and([eb('sd.status', '=', 'ORDERED'), eb('so.tx_hash', '=', eb.ref('sd.signature'))])]))
      // A payout batch's deposit is in the books once the batch is funded; short of its total, nothing (decision 0051).
      .where((eb) => eb.or([eb('b.id', 'is', null), eb('b.funded_at', 'is not', null)]))
      .where((eb) => eb.or([eb('s.status', 'is', null), eb('s.status', '=', 'PENDING')]))
      .groupBy('c.token')
      .execute();
  },

  /**
   * The treasury's lookup tables (decision 0056): how many, the addresses they hold, and the
   * extension in flight (landed, it has taken SOL the books post only once it is final).
   */
  async lookupTables(db: Db): Promise<{ tables: number; addresses: number; inFlight: { creates: boolean; addresses: number } | undefined }> {
    const [held, pending] = await Promise.all([
      db.selectFrom('chain_lookup_tables').select([sql<number>`count(*)::int`.as('tables'), sql<number>`coalesce(sum(cardinality(addresses)), 0)::int`.as('addresses')]).executeTakeFirstOrThrow(),
      db.selectFrom('chain_lookup_table_extensions').select(['creates', sql<number>`cardinality(addresses)`.as('addresses')]).where('status', '=', 'PENDING').executeTakeFirst(),
    ]);
    return { tables: Number(held.tables), addresses: Number(held.addresses), inFlight: pending ? { creates: pending.creates, addresses: Number(pending.addresses) } : undefined };
  },

  async insertRun(
    db: Db,
    run: { id: string; started_at: Date; finished_at: Date; address: string; in_flight_transfers: number; drift_found: boolean },
    balances: Array<Omit<TreasuryReconciliationBalancesTable, 'run_id'>>,
  ) {
    await db.insertInto('treasury_reconciliation_runs').values(run).execute();
    if (balances.length > 0) await db.insertInto('treasury_reconciliation_balances').values(balances.map((b) => ({ ...b, run_id: run.id }))).execute();
  },

  /** The latest run with its balances, or undefined before the first. */
  async lastRun(db: Db) {
    return (await treasuryRepo.lastRuns(db, 1))[0];
  },

  /** The latest `limit` runs, newest first, each with its balances by currency (two statements). */
  async lastRuns(db: Db, limit: number) {
    const runs = await db
      .selectFrom('treasury_reconciliation_runs')
      .select(['id', 'started_at', 'finished_at', 'address', 'in_flight_transfers', 'drift_found'])
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    if (runs.length === 0) return [];
    const balances = await db
      .selectFrom('treasury_reconciliation_balances')
      .select(['run_id', 'wallet', 'currency', sql<string>`on_chain::text`.as('on_chain'), sql<string>`ledger::text`.as('ledger'), sql<string>`drift::text`.as('drift'), sql<string>`in_flight_amount::text`.as('in_flight_amount')])
      .where('run_id', 'in', runs.map((run) => run.id))
      .orderBy('wallet')
      .orderBy('currency')
      .execute();
    return runs.map((run) => ({ ...run, balances: balances.filter((b) => b.run_id === run.id) }));
  },
};

export type ReconciliationRunRow = Awaited<ReturnType<typeof treasuryRepo.lastRuns>>[number];
