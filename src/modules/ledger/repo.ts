import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import type { LedgerEntriesTable, SettlementsTable } from './tables.ts';
import type { AccountCode, Posting } from './postings.ts';
import { SETTLEMENT_COLUMNS } from './tables.ts';

const FEES_PAYABLE: AccountCode = 'merchant_fees_payable';
const CHARGEBACKS_OWED: AccountCode = 'merchant_chargebacks_owed';
const MARKUP_PAYABLE: AccountCode = 'merchant_markup_payable';
/** What a settlement pays: the merchant's fees and its partner markup, each its own account. */
const EARNED: AccountCode[] = [FEES_PAYABLE, MARKUP_PAYABLE];

type ReferenceType = LedgerEntriesTable['reference_type'];

/**
 * What a merchant sees of the ledger (docs/decisions/0041): its own accounts' postings, and only
 * the entries that post to one of them; `all` is the back office's view, the platform's legs too.
 */
export type LedgerView = 'merchant' | 'all';

/** Entries posting to one of the merchant's own accounts (a merchant account always names its merchant). */
const touchesMerchantAccount = sql<boolean>`exists (select 1 from ledger_postings mp join ledger_accounts ma on ma.id = mp.account_id
  where mp.entry_id = e.id and ma.merchant_id = e.merchant_id)`;

/**
 * Fee-bearing entries (order movements with a merchant-fee or markup posting) no settlement has
 * closed yet: a row per such posting, so an entry with both appears twice.
 */
function unsettledFeeEntriesQuery(db: Db, cutoff: Date) {
  return db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_postings as p', 'p.entry_id', 'e.id')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .leftJoin('settled_entries as s', 's.entry_id', 'e.id')
    .where('e.created_at', '<', cutoff)
    .where('e.kind', '!=', 'SETTLEMENT')
    .where('a.code', 'in', EARNED)
    .where('s.entry_id', 'is', null);
}

/** Every function takes the transaction (or root db) it runs in. */
export const ledgerRepo = {
  /** The account's id, created on first use (concurrent first uses agree on one row); `wallet`: token_treasury's (decision 0057), else null. */
  async accountId(db: Db, account: { code: AccountCode; merchantId: string | null; currency: string; wallet: number | null }): Promise<{ id: string; created: boolean }> {
    const { code, merchantId, currency, wallet } = account;
    const find = () =>
      db
        .selectFrom('ledger_accounts')
        .select('id')
        .where('code', '=', code)
        .where('currency', '=', currency)
        .where((eb) => (merchantId === null ? eb('merchant_id', 'is', null) : eb('merchant_id', '=', merchantId)))
        .where((eb) => (wallet === null ? eb('wallet', 'is', null) : eb('wallet', '=', wallet)))
        .executeTakeFirst();
    const existing = await find();
    if (existing) return { id: existing.id, created: false };
    await sql`insert into ledger_accounts (id, code, merchant_id, currency, wallet) values (${newId()}, ${code}, ${merchantId}, ${currency}, ${wallet}) on conflict do nothing`.execute(db);
    return { id: (await find())!.id, created: true };
  },

  /** Several entries in one statement; answers the ids of those inserted (a (reference, kind) already posted is skipped). */
  async insertEntries(db: Db, entries: Array<{ id: string; merchantId: string | null; kind: string; referenceType: ReferenceType; referenceId: string; at: Date }>) {
    const inserted = await db
      .insertInto('ledger_entries')
      .values(entries.map((entry) => ({ id: entry.id, merchant_id: entry.merchantId, kind: entry.kind, reference_type: entry.referenceType, reference_id: entry.referenceId, created_at: entry.at })))
      .onConflict((oc) => oc.constraint('ledger_entries_reference_kind_key').doNothing())
      .returning('id')
      .execute();
    return new Set(inserted.map((row) => row.id));
  },

  /**
   * The postings of several entries in one statement. Each entry's must be in the same statement:
   * the database checks every entry a statement touched at its end (migration 0082), so a split
   * into chunks must fall between entries.
   */
  insertPostings(db: Db, postings: Array<Posting & { entryId: string; accountId: string }>) {
    return db
      .insertInto('ledger_postings')
      .values(postings.map((p) => ({ id: newId(), entry_id: p.entryId, account_id: p.accountId, currency: p.currency, amount: p.amount })))
      .execute();
  },

  /**
   * A merchant account's balance (debits positive): fees-payable's is a credit (negative by the
   * fees not settled), chargebacks-owed's a debit (what the merchant owes).
   */
  async merchantBalance(db: Db, code: 'merchant_fees_payable' | 'merchant_markup_payable' | 'merchant_chargebacks_owed' | 'merchant_settlements', merchantId: string): Promise<string> {
    const row = await db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('p.amount'), sql<string>`0`).as('sum'))
      .where('a.code', '=', code)
      .where('a.merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow();
    return String(row.sum);
  },

  /** A platform account's balance per currency (sum of its postings, debits positive). */
  platformBalances(db: Db, code: AccountCode) {
    return db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['a.currency', (eb) => eb.fn.coalesce(eb.fn.sum<string>('p.amount'), sql<string>`0`).as('balance')])
      .where('a.code', '=', code)
      .where('a.merchant_id', 'is', null)
      .groupBy('a.currency')
      .execute();
  },

  /** The token_treasury balance per wallet and currency (decision 0057). */
  treasuryWalletBalances(db: Db) {
    return db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select([sql<number>`a.wallet`.as('wallet'), 'a.currency', (eb) => eb.fn.coalesce(eb.fn.sum<string>('p.amount'), sql<string>`0`).as('balance')])
      .where('a.code', '=', 'token_treasury')
      .where('a.merchant_id', 'is', null)
      .groupBy(['a.wallet', 'a.currency'])
      .execute();
  },

  /** Entries carrying a merchant fee or markup, not yet settled, created before the cut-off: what a settlement closes (a row per posting). */
  unsettledFeeEntries(db: Db, merchantId: string, cutoff: Date) {
    return unsettledFeeEntriesQuery(db, cutoff).select(['e.id', 'a.code', 'p.amount']).where('e.merchant_id', '=', merchantId).execute();
  },

  lastSettlementEnd(db: Db, merchantId: string) {
    return db
      .selectFrom('settlements')
      .select((eb) => eb.fn.max('period_end').as('end'))
      .where('merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow()
      .then((row) => (row.end ? new Date(row.end as unknown as string | Date) : undefined));
  },

  lockMerchant(db: Db, merchantId: string) {
    return db.selectFrom('merchants').select(['id', 'created_at']).where('id', '=', merchantId).forUpdate().executeTakeFirst();
  },

  insertSettlement(db: Db, settlement: Insertable<SettlementsTable>) {
    return db.insertInto('settlements').values(settlement).returning(SETTLEMENT_COLUMNS).executeTakeFirstOrThrow();
  },

  markSettled(db: Db, settlementId: string, entryIds: string[]) {
    return db
      .insertInto('settled_entries')
      .values(entryIds.map((entryId) => ({ entry_id: entryId, settlement_id: settlementId })))
      .execute();
  },

  /**
   * Per merchant, its fee entries not settled before the cut-off: their fees-payable sum (a credit:
   * negative by the fees), count and oldest, and what it owes for charge-backs (a debit, netted
   * by the run); only merchants a run at that cut-off would pay (fees above what is owed), the
   * largest payment first. The same entries a run at that cut-off would close.
   */
  unsettledFeesByMerchant(db: Db, cutoff: Date) {
    const owed = sql<string>`(select coalesce(sum(op.amount), 0) from ledger_postings op join ledger_accounts oa on oa.id = op.account_id
      where oa.code = ${CHARGEBACKS_OWED} and oa.merchant_id = m.id)`;
    return unsettledFeeEntriesQuery(db, cutoff)
      .innerJoin('merchants as m', 'm.id', 'e.merchant_id')
      .select([
        'm.id as merchant_id',
        'm.name as merchant_name',
        sql<string>`sum(p.amount)::text`.as('sum'),
        sql<string>`coalesce(sum(p.amount) filter (where a.code = ${MARKUP_PAYABLE}), 0)::text`.as('markup'),
        sql<string>`${owed}::text`.as('owed'),
        sql<number>`count(distinct e.id)::int`.as('entries'),
        sql<Date>`min(e.created_at)`.as('oldest'),
      ])
      .groupBy(['m.id', 'm.name'])
      .having(sql<boolean>`sum(p.amount) + ${owed} < 0`)
      .orderBy(sql`sum(p.amount) + ${owed}`)
      .orderBy('m.id')
      .execute();
  },

  /** Merchants with fee entries not yet settled before the cut-off (the scheduled run's work list). */
  merchantsToSettle(db: Db, cutoff: Date) {
    // Fee entries always name their merchant (only a treasury funding has none).
    return unsettledFeeEntriesQuery(db, cutoff).select('e.merchant_id').distinct().$narrowType<{ merchant_id: string }>().execute();
  },

  async listSettlements(db: Db, merchantId: string, page: { offset: number; limit: number }) {
    const query = db.selectFrom('settlements').where('merchant_id', '=', merchantId);
    const [rows, count] = await Promise.all([
      query.select(SETTLEMENT_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /** The merchant's view only (LedgerView): GET /ledger/entries is the merchant's. */
  async listEntries(db: Db, merchantId: string, settled: boolean | undefined, page: { offset: number; limit: number }) {
    let query = db
      .selectFrom('ledger_entries as e')
      .leftJoin('settled_entries as s', 's.entry_id', 'e.id')
      .where('e.merchant_id', '=', merchantId)
      .where(touchesMerchantAccount);
    if (settled === true) query = query.where('s.entry_id', 'is not', null);
    if (settled === false) query = query.where('s.entry_id', 'is', null);
    const [rows, count] = await Promise.all([
      query
        .select(['e.id', 'e.kind', 'e.reference_type', 'e.reference_id', 'e.created_at', 's.settlement_id'])
        .orderBy('e.created_at', 'desc')
        .orderBy('e.id', 'desc')
        .offset(page.offset)
        .limit(page.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /** A reference's entries (ledger_entries_reference_kind_key), the merchant's only. */
  entriesOf(db: Db, merchantId: string, referenceType: ReferenceType, referenceId: string, view: LedgerView) {
    return db
      .selectFrom('ledger_entries as e')
      .$if(view === 'merchant', (query) => query.where(touchesMerchantAccount))
      .leftJoin('settled_entries as s', 's.entry_id', 'e.id')
      .select(['e.id', 'e.kind', 'e.reference_type', 'e.reference_id', 'e.created_at', 's.settlement_id'])
      .where('e.reference_type', '=', referenceType)
      .where('e.reference_id', '=', referenceId)
      .where('e.merchant_id', '=', merchantId)
      .orderBy('e.created_at')
      .orderBy('e.id')
      .execute();
  },

  /** `merchant`: only the merchant's own accounts' postings (LedgerView). */
  postingsOf(db: Db, entryIds: string[], view: LedgerView) {
    if (entryIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['p.entry_id', 'a.code', 'a.merchant_id', 'p.currency', 'p.amount'])
      .where('p.entry_id', 'in', entryIds)
      .$if(view === 'merchant', (query) => query.where('a.merchant_id', 'is not', null))
      .orderBy('p.id')
      .execute();
  },
};
