/**
 * The double-entry ledger (issue 7, DESIGN.md §8): order movements post inside the order's own
 * transition transaction; the fee balance is the merchant's fees-payable account; a settlement
 * closes every unsettled fee entry before a cut-off, atomically and once.
 */
import type { Static } from 'typebox';
import { inTransaction } from '../../platform/commit-signals.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { decimal, toFixedText } from '../../lib/money.ts';
import {
  type DisputeMovement,
  type OrderAmounts,
  type OrderMovement,
  type Posting,
  type SponsoredFeeMovement,
  chainCostPostings,
  disputePostings,
  sweepCostPostings,
  lookupTableCostPostings,
  isBalanced,
  isMerchantAccount,
  orderPostings,
  settlementPaidPostings,
  settlementPostings,
  sponsoredFeePostings,
  treasuryFundingPostings,
  treasuryWithdrawalPostings,
} from './postings.ts';
import { readBalances } from './balances.ts';
import { type LedgerView, ledgerRepo as repo } from './repo.ts';
import type { EntrySchema } from './schemas.ts';
import type { LedgerEntriesTable } from './tables.ts';
import { type Settlement, toSettlement } from './settlement-view.ts';

export type { Settlement };

type EntryRow = { id: string; kind: string; reference_type: string; reference_id: string; created_at: Date; settlement_id: string | null };

export type Entry = Static<typeof EntrySchema>;



const settlementAudit = (cutoff: Date, merchantId: string | null, settlementIds: string[]) => ({
  action: 'settlements.run',
  targetType: merchantId ? 'merchant' : 'platform',
  targetId: merchantId,
  details: { cutoff: cutoff.toISOString(), settlementIds },
});

/** What an order transition posts (postOrderEntries): a movement of the order's money, or its transfer's chain costs. */
export type OrderEntry =
  | { order: OrderAmounts; movement: OrderMovement; received?: string | undefined }
  | { order: Pick<OrderAmounts, 'id' | 'merchant_id' | 'treasury_wallet'>; chainCosts: { feeLamports: bigint; rentLamports: bigint } };

/** A sponsored fee as the ledger records it: whom it is charged to and the sign request it paid for. */
export interface SponsoredFeeCharge {
  merchantId: string;
  signRequestId: string;
  lamports: bigint;
  at: Date;
}

/**
 * The unsettled postings' totals: the merchant fees, the markup and their distinct entries (an
 * entry carrying both has two rows). Credits are negative, so both sums are negated.
 */
function earned(rows: Array<{ id: string; code: string; amount: string }>) {
  const sum = (code: string) => rows.filter((row) => row.code === code).reduce((total, row) => total.minus(row.amount), decimal(0));
  return { fees: sum('merchant_fees_payable'), markup: sum('merchant_markup_payable'), entryIds: [...new Set(rows.map((row) => row.id))] };
}

const pagination = (page: number, pageSize: number, total: number) => ({ page, pageSize, total, totalPages: Math.ceil(total / pageSize) });

export function createLedgerService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  // Account rows never change once committed: their ids are cached for the life of the process.
  // One created in this transaction is not cached (the transaction may still roll back).
  const accountIds = new Map<string, string>();
  async function accountId(trx: Trx, code: Posting['account'], merchantId: string | null, currency: string, wallet: number | null) {
    const key = `${code}|${merchantId ?? ''}|${currency}|${wallet ?? ''}`;
    const cached = accountIds.get(key);
    if (cached) return cached;
    const { id, created } = await repo.accountId(trx, { code, merchantId, currency, wallet });
    if (!created) accountIds.set(key, id);
    return id;
  }

  /** merchantId null: the platform's own movement (a treasury funding). */
  type NewEntry = { merchantId: string | null; kind: string; referenceType: LedgerEntriesTable['reference_type']; referenceId: string; at: Date; postings: Posting[] };

  /**
   * Posts entries with their postings in two statements however many; an entry of a (reference,
   * kind) already posted is skipped. Answers how many were posted.
   */
  async function postAll(trx: Trx, entries: NewEntry[]): Promise<number> {
    const withIds = entries.filter((entry) => entry.postings.length > 0).map((entry) => ({ ...entry, id: newId() }));
    for (const entry of withIds) {
      if (!isBalanced(entry.postings)) throw new Error(`ledger entry ${entry.kind} for ${entry.referenceId} does not sum to zero`);
    }
    if (withIds.length === 0) return 0;
    const inserted = await repo.insertEntries(trx, withIds);
    const postings = [];
    for (const entry of withIds.filter((e) => inserted.has(e.id))) {
      for (const posting of entry.postings) {
        const owner = isMerchantAccount(posting.account) ? entry.merchantId : null;
        if (isMerchantAccount(posting.account) && owner === null) throw new Error(`ledger entry ${entry.kind} posts to ${posting.account} without a merchant`);
        // Each treasury wallet keeps its own token_treasury accounts (decision 0057).
        const wallet = posting.account === 'token_treasury' ? (posting.wallet ?? 1) : null;
        postings.push({ ...posting, entryId: entry.id, accountId: await accountId(trx, posting.account, owner, posting.currency, wallet) });
      }
    }
    if (postings.length > 0) await repo.insertPostings(trx, postings);
    return inserted.size;
  }

  /** Posts one entry with its postings; a second post of the same (reference, kind) is a no-op. */
  async function post(trx: Trx, entry: Omit<NewEntry, 'postings'>, postings: Posting[]): Promise<boolean> {
    return (await postAll(trx, [{ ...entry, postings }])) > 0;
  }

  /** `by`: an operator's run, audited in the settlement's own transaction. */
  async function settleMerchant(merchantId: string, cutoff: Date, by?: AuditActor): Promise<Settlement | null> {
    return inTransaction(db, async (trx) => {
      // One settlement at a time per merchant: a concurrent run waits here, then finds nothing left.
      const merchant = await repo.lockMerchant(trx, merchantId);
      if (!merchant) return null;
      const periodStart = (await repo.lastSettlementEnd(trx, merchantId)) ?? merchant.created_at;
      // A cut-off at or before the last one has nothing left to close (entries that committed
      // late with an earlier timestamp go into the next period).
      if (cutoff <= periodStart) return null;
      const { fees, markup, entryIds } = earned(await repo.unsettledFeeEntries(trx, merchantId, cutoff));
      if (entryIds.length === 0) return null;
      // What the merchant owes for charge-backs (accepted MED claims) is netted first
      // (docs/decisions/0040). Only settlements credit that account, one at a time per merchant
      // (the lock above), so it is never netted twice. Fees that do not cover it pay nothing: the
      // entries stay open and the debt is carried to the next run.
      const owed = decimal(await repo.merchantBalance(trx, 'merchant_chargebacks_owed', merchantId));
      const amount = fees.plus(markup).minus(owed);
      if (amount.lte(0)) return null;
      const now = clock.now();
      const settlement = await repo.insertSettlement(trx, {
        id: newId(),
        merchant_id: merchantId,
        period_start: periodStart,
        period_end: cutoff,
        amount_brl: toFixedText(amount, 2),
        markup_brl: toFixedText(markup, 2),
        entries_count: entryIds.length,
        created_at: now,
        // Paid by PIX by the settlement-payouts worker, which finds the merchant's key (or waits for one).
        payout_status: 'PENDING',
        payout_next_at: now,
      });
      await repo.markSettled(trx, settlement.id, entryIds);
      await post(trx, { merchantId, kind: 'SETTLEMENT', referenceType: 'settlement', referenceId: settlement.id, at: now }, settlementPostings(toFixedText(fees, 2), toFixedText(owed, 2), toFixedText(markup, 2)));
      if (by) await recordAudit(trx, by, settlementAudit(cutoff, merchantId, [settlement.id]));
      return toSettlement(settlement);
    });
  }

  /** Every merchant with unsettled fee entries before the cut-off; one settlement each. */
  async function runSettlements(cutoff: Date, by?: AuditActor): Promise<Settlement[]> {
    const settled: Settlement[] = [];
    for (const { merchant_id } of await repo.merchantsToSettle(db, cutoff)) {
      const settlement = await settleMerchant(merchant_id, cutoff, by);
      if (settlement) settled.push(settlement);
    }
    return settled;
  }

  /** An order's entry: a movement of its money, or what the chain charged the treasury for its transfer (fee and rent, lamports). */
  function orderEntry(entry: OrderEntry, at: Date): NewEntry {
    const { order } = entry;
    const common = { merchantId: order.merchant_id, referenceType: 'order' as const, referenceId: order.id, at };
    return 'movement' in entry
      ? { ...common, kind: entry.movement, postings: orderPostings(entry.order, entry.movement, entry.received) }
      : { ...common, kind: 'CHAIN_COSTS', postings: chainCostPostings(entry.chainCosts, order.treasury_wallet ?? 1) };
  }

  return {
    /**
     * Order transitions' entries, inside their transaction: two statements however many (the
     * transitions of a batch of transfers post together). Each (order, kind) once.
     */
    postOrderEntries(trx: Trx, entries: readonly OrderEntry[], at: Date) {
      return postAll(trx, entries.map((entry) => orderEntry(entry, at)));
    },

    /**
     * A payout batch's tokens (docs/architecture/payout-batches.md): its deposit held for the
     * merchant (FUNDED, referencing the batch: treasury +D / deposits_to_return −D), then each
     * line's share taken by its order (ITEM_RELEASED, referencing the order: the reverse for T,
     * before the order's own PAYOUT_DEPOSIT_RECEIVED books treasury +T / in transit −T). Once each.
     */
    postPayoutBatchTokens(trx: Trx, input: { merchantId: string; movement: 'PAYOUT_BATCH_FUNDED' | 'PAYOUT_BATCH_ITEM_RELEASED'; referenceId: string; token: string; amount: string; at: Date }) {
      const held = input.movement === 'PAYOUT_BATCH_FUNDED';
      const legs: Posting[] = [
        { account: 'token_treasury', currency: input.token, amount: held ? decimal(input.amount).toString() : decimal(input.amount).negated().toString() },
        { account: 'deposits_to_return', currency: input.token, amount: held ? decimal(input.amount).negated().toString() : decimal(input.amount).toString() },
      ];
      const referenceType = held ? 'payout_batch' : 'order';
      return post(trx, { merchantId: input.merchantId, kind: input.movement, referenceType, referenceId: input.referenceId, at: input.at }, decimal(input.amount).isZero() ? [] : legs);
    },

    /**
     * What the sponsor paid for a credited deposit's sweep (fee, and rent net of the rent
     * reclaimed, lamports), in the transaction that marks the sweep done or failed; once per order,
     * or per payout batch (`referenceType` payout_batch: the batch's deposit address swept).
     */
    postSweepCosts(trx: Trx, order: Pick<OrderAmounts, 'id' | 'merchant_id'> & { referenceType?: 'order' | 'payout_batch' }, costs: { feeLamports: bigint; rentLamports: bigint }, at: Date) {
      return post(trx, { merchantId: order.merchant_id, kind: 'SWEEP_COSTS', referenceType: order.referenceType ?? 'order', referenceId: order.id, at }, sweepCostPostings(costs));
    },

    /**
     * Sponsored Solana fees charged to their merchants (SPONSORED_FEE), or given back when a send
     * was refused unsent (SPONSORED_FEE_RELEASED), in the caller's transaction and two statements
     * however many (a group-committed batch of sends); `signRequestId` is the wallet_sign_requests
     * row of the send. Once per (sign request, movement).
     */
    async postSponsoredFees(trx: Trx, fees: SponsoredFeeCharge[], movement: SponsoredFeeMovement) {
      await postAll(
        trx,
        fees.map((fee) => ({ merchantId: fee.merchantId, kind: movement, referenceType: 'wallet_sign_request', referenceId: fee.signRequestId, at: fee.at, postings: sponsoredFeePostings(fee.lamports, movement) })),
      );
    },

    /**
     * An operator's funding of the treasury (`fundingId`: its treasury_fundings row), in the
     * caller's transaction: token_treasury +X / treasury_capital −X. Once per funding.
     */
    postTreasuryFunding(trx: Trx, funding: { fundingId: string; currency: string; amount: string; wallet: number; at: Date }) {
      return post(trx, { merchantId: null, kind: 'TREASURY_FUNDING', referenceType: 'treasury_funding', referenceId: funding.fundingId, at: funding.at }, treasuryFundingPostings(funding.currency, funding.amount, funding.wallet));
    },

    /** A treasury withdrawal two operators approved (`withdrawalId`: its treasury_withdrawals row): treasury_capital +X / token_treasury −X. */
    postTreasuryWithdrawal(trx: Trx, withdrawal: { withdrawalId: string; currency: string; amount: string; wallet: number; at: Date }) {
      return post(trx, { merchantId: null, kind: 'TREASURY_WITHDRAWAL', referenceType: 'treasury_withdrawal', referenceId: withdrawal.withdrawalId, at: withdrawal.at }, treasuryWithdrawalPostings(withdrawal.currency, withdrawal.amount, withdrawal.wallet));
    },

    /** What an extension of the treasury's lookup tables took (postings.ts), in the transaction that settles it; once per extension. */
    postLookupTableCosts(trx: Trx, extension: { id: string; at: Date }, costs: { feeLamports: bigint; rentLamports: bigint }) {
      return post(trx, { merchantId: null, kind: 'LOOKUP_TABLE_COSTS', referenceType: 'lookup_table_extension', referenceId: extension.id, at: extension.at }, lookupTableCostPostings(costs));
    },

    /** An accepted MED claim's chargeback to the merchant, or the return it paid (postings.ts); once per dispute and movement. */
    postDisputeMovement(trx: Trx, dispute: { disputeId: string; merchantId: string; amountBrl: string; at: Date }, movement: DisputeMovement) {
      return post(trx, { merchantId: dispute.merchantId, kind: movement, referenceType: 'dispute', referenceId: dispute.disputeId, at: dispute.at }, disputePostings(movement, dispute.amountBrl));
    },

    /** A settlement's PIX to the merchant, confirmed by the PSP, in the transaction that marks it PAID: merchant_settlements +A / pix_cash −A; once per settlement. */
    postSettlementPaid(trx: Trx, settlement: { settlementId: string; merchantId: string; amountBrl: string; at: Date }) {
      return post(trx, { merchantId: settlement.merchantId, kind: 'SETTLEMENT_PAID', referenceType: 'settlement', referenceId: settlement.settlementId, at: settlement.at }, settlementPaidPostings(settlement.amountBrl));
    },

    /** The platform's token_treasury balance per currency (debits positive: what the books say it holds). */
    /** SOL the treasury's lookup tables hold as rent (LOOKUP_TABLE_COSTS, decision 0056). */
    async lookupTableRent(): Promise<string> {
      const rows = await repo.platformBalances(db, 'lookup_table_rent');
      return decimal(rows.find((row) => row.currency === 'SOL')?.balance ?? '0').toFixed(9);
    },

    /** Treasury wallet → its token_treasury balance per currency (decision 0057). */
    async treasuryWalletBalances(executor: Db = db): Promise<Map<number, Map<string, string>>> {
      const byWallet = new Map<number, Map<string, string>>();
      for (const row of await repo.treasuryWalletBalances(executor)) {
        const wallet = byWallet.get(row.wallet) ?? new Map<string, string>();
        wallet.set(row.currency, decimal(row.balance).toString());
        byWallet.set(row.wallet, wallet);
      }
      return byWallet;
    },

    /**
     * The spec's fee balance (merchant fees collected and not yet settled: fees_payable, credited
     * as fees are earned and debited only by the settlements that pay them, so never negative)
     * and, apart, what the merchant owes for charge-backs until a settlement nets it.
     */
    async feeBalance(merchantId: string) {
      const [payable, owed, markup] = await Promise.all([
        repo.merchantBalance(db, 'merchant_fees_payable', merchantId),
        repo.merchantBalance(db, 'merchant_chargebacks_owed', merchantId),
        repo.merchantBalance(db, 'merchant_markup_payable', merchantId),
      ]);
      return { merchantId, balance: toFixedText(decimal(payable).negated(), 2), chargebacksOwed: toFixedText(owed, 2), markupBalance: toFixedText(decimal(markup).negated(), 2), currency: 'BRL' as const };
    },

    settleMerchant,

    runSettlements,

    settlementsDue,

    /** An operator's run: each settlement is audited with it; a run that closes nothing is audited alone. */
    async runAsOperator(input: { cutoff: Date; merchantId?: string }, by: AuditActor): Promise<Settlement[]> {
      const settlements = input.merchantId
        ? [await settleMerchant(input.merchantId, input.cutoff, by)].filter((s): s is Settlement => s !== null)
        : await runSettlements(input.cutoff, by);
      if (settlements.length === 0) {
        await inTransaction(db, (trx) => recordAudit(trx, by, settlementAudit(input.cutoff, input.merchantId ?? null, [])));
      }
      return settlements;
    },

    async listSettlements(merchantId: string, query: { page: number; pageSize: number }) {
      const { rows, total } = await repo.listSettlements(db, merchantId, { offset: (query.page - 1) * query.pageSize, limit: query.pageSize });
      return { settlements: rows.map(toSettlement), pagination: pagination(query.page, query.pageSize, total) };
    },

    async listEntries(merchantId: string, query: { page: number; pageSize: number; settled?: boolean }) {
      const { rows, total } = await repo.listEntries(db, merchantId, query.settled, { offset: (query.page - 1) * query.pageSize, limit: query.pageSize });
      return { entries: await withPostings(rows, 'merchant'), pagination: pagination(query.page, query.pageSize, total) };
    },

    /**
     * The entries an order posted (its timeline), oldest first, scoped to its merchant: as the
     * merchant sees them, or (`all`) with the platform's legs, for the back office.
     */
    async orderEntries(merchantId: string, orderId: string, view: LedgerView): Promise<Entry[]> {
      return withPostings(await repo.entriesOf(db, merchantId, 'order', orderId, view), view);
    },

    /** What the merchant is owed and owes (GET /ledger/balances, balances.ts). */
    balances: (merchantId: string) => readBalances({ db, clock }, merchantId),

    /**
     * Fee entries not settled yet, and their total (BRL): what the next settlement closes. The
     * same entries as a settlement run now would close (repo.unsettledFeeEntries).
     */
    async unsettledFees(merchantId: string) {
      const { fees, markup, entryIds } = earned(await repo.unsettledFeeEntries(db, merchantId, clock.now()));
      return { entries: entryIds.length, amountBrl: toFixedText(fees.plus(markup), 2) };
    },
  };

  /**
   * What the next settlement run would pay each merchant (GET /admin/settlements/due): the
   * merchants with fee entries unsettled now, the largest amount first, the `limit` first shown;
   * the totals count them all.
   */
  async function settlementsDue(limit: number) {
    const asOf = clock.now();
    const rows = await repo.unsettledFeesByMerchant(db, asOf);
    // A run pays the fees less what the merchant owes for charge-backs (settleMerchant).
    const due = rows.map((row) => ({ row, amount: decimal(row.sum).negated().minus(row.owed) }));
    return {
      asOf: asOf.toISOString(),
      merchants: rows.length,
      totalBrl: toFixedText(due.reduce((sum, { amount }) => sum.plus(amount), decimal(0)), 2),
      data: due.slice(0, limit).map(({ row, amount }) => ({
        merchantId: row.merchant_id,
        merchantName: row.merchant_name,
        amountBrl: toFixedText(amount, 2),
        markupBrl: toFixedText(decimal(row.markup).negated(), 2),
        chargebacksOwedBrl: toFixedText(row.owed, 2),
        entries: row.entries,
        oldestEntryAt: new Date(row.oldest).toISOString(),
      })),
    };
  }

  async function withPostings(rows: EntryRow[], view: LedgerView): Promise<Entry[]> {
    const postings = await repo.postingsOf(db, rows.map((row) => row.id), view);
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      // A merchant's entries never reference a treasury funding (the platform's, merchant null).
      referenceType: row.reference_type as Entry['referenceType'],
      referenceId: row.reference_id,
      createdAt: row.created_at.toISOString(),
      settled: row.settlement_id !== null,
      settlementId: row.settlement_id,
      postings: postings
        .filter((p) => p.entry_id === row.id)
        .map((p) => ({ account: p.code, owner: p.merchant_id === null ? ('platform' as const) : ('merchant' as const), currency: p.currency, amount: decimal(p.amount).toString() })),
    }));
  }
}

export type LedgerService = ReturnType<typeof createLedgerService>;
export type { LedgerView };
