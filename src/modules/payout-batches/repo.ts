/** The SQL of payout batches; every function takes the transaction (or root db) it runs in. */
import { type Insertable, type Updateable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { BATCH_COLUMNS, type BatchStatus, ITEM_COLUMNS, type ItemStatus, type PayoutBatchItemsTable, type PayoutBatchRow, type PayoutBatchesTable } from './tables.ts';

/** A batch not yet funded is in one of these (PAUSED: paused before its deposit covered the total). */
export const UNFUNDED_STATUSES: BatchStatus[] = ['VALIDATED', 'AWAITING_APPROVAL', 'AWAITING_FUNDING', 'PAUSED'];

export const payoutBatchesRepo = {
  insertBatch(db: Db, row: Insertable<PayoutBatchesTable>) {
    return db.insertInto('payout_batches').values(row).returning(BATCH_COLUMNS).executeTakeFirstOrThrow();
  },

  /** Up to 500 lines per statement, so 1,000 lines stay well under the drivers' parameter limit. */
  async insertItems(db: Db, rows: Insertable<PayoutBatchItemsTable>[]) {
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('payout_batch_items').values(rows.slice(i, i + 500)).execute();
  },

  find(db: Db, merchantId: string, id: string) {
    return db.selectFrom('payout_batches').select(BATCH_COLUMNS).where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst();
  },

  findById(db: Db, id: string) {
    return db.selectFrom('payout_batches').select(BATCH_COLUMNS).where('id', '=', id).executeTakeFirst();
  },

  lock(db: Db, id: string) {
    return db.selectFrom('payout_batches').select(BATCH_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  },

  lockByAddress(db: Db, address: string) {
    return db.selectFrom('payout_batches').select(BATCH_COLUMNS).where('deposit_address', '=', address).forUpdate().executeTakeFirst();
  },

  /**
   * A batch stopped (EXPIRED, CANCELLED) before its deposits covered its total: what arrived is
   * no longer counted toward it but held for an operator to return (UNFUNDED; decision 0051).
   */
  async holdUnfunded(db: Db, batch: Pick<PayoutBatchRow, 'funded_at' | 'deposit_address'>) {
    if (batch.funded_at !== null || batch.deposit_address === null) return [];
    return db
      .updateTable('chain_deposits')
      .set({ outcome: 'UNFUNDED' })
      .where('deposit_address', '=', batch.deposit_address)
      .where('order_id', 'is', null)
      .where('outcome', '=', 'CREDITED')
      .returning(['signature', 'token', 'amount'])
      .execute();
  },

  /** Guarded: only from one of `from`; undefined when the batch was elsewhere. */
  move(db: Db, id: string, from: readonly BatchStatus[], changes: Updateable<PayoutBatchesTable> & { status: BatchStatus }) {
    return db.updateTable('payout_batches').set(changes).where('id', '=', id).where('status', 'in', from).returning(BATCH_COLUMNS).executeTakeFirst();
  },

  list(db: Db, merchantId: string, limit: number, offset: number) {
    return db.selectFrom('payout_batches').select(BATCH_COLUMNS).where('merchant_id', '=', merchantId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  },

  async count(db: Db, merchantId: string) {
    const row = await db.selectFrom('payout_batches').select((eb) => eb.fn.countAll<string>().as('n')).where('merchant_id', '=', merchantId).executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The lines with their order's status (when made), in line order. */
  items(db: Db, batchId: string, limit: number, offset: number) {
    return db
      .selectFrom('payout_batch_items as i')
      .leftJoin('orders as o', 'o.id', 'i.order_id')
      .select(ITEM_COLUMNS.map((column) => `i.${column}` as const))
      .select(['o.status as order_status', 'o.failure_reason as order_failure_reason', 'o.amount_brl as order_amount_brl', 'o.net_amount_brl as order_net_amount_brl'])
      .where('i.batch_id', '=', batchId)
      .orderBy('i.line')
      .limit(limit)
      .offset(offset)
      .execute();
  },

  /** How many lines and orders stand where: the batch's progress. */
  async progress(db: Db, batchId: string) {
    const rows = await db
      .selectFrom('payout_batch_items as i')
      .leftJoin('orders as o', 'o.id', 'i.order_id')
      .select(['i.status', 'o.status as order_status'])
      .select((eb) => [eb.fn.countAll<string>().as('n'), sql<string>`coalesce(sum(o.amount_token), 0)::text`.as('ordered_token')])
      .where('i.batch_id', '=', batchId)
      .groupBy(['i.status', 'o.status'])
      .execute();
    return rows.map((row) => ({ status: row.status, orderStatus: row.order_status, count: Number(row.n), orderedToken: row.ordered_token }));
  },

  /** The next valid lines still to pay, in line order. */
  nextValid(db: Db, batchId: string, limit: number) {
    return db.selectFrom('payout_batch_items').select(ITEM_COLUMNS).where('batch_id', '=', batchId).where('status', '=', 'VALID').orderBy('line').limit(limit).execute();
  },

  lockItem(db: Db, batchId: string, line: number) {
    return db.selectFrom('payout_batch_items').select(ITEM_COLUMNS).where('batch_id', '=', batchId).where('line', '=', line).forUpdate().executeTakeFirst();
  },

  setItem(db: Db, batchId: string, line: number, from: ItemStatus, changes: Updateable<PayoutBatchItemsTable>) {
    return db.updateTable('payout_batch_items').set(changes).where('batch_id', '=', batchId).where('line', '=', line).where('status', '=', from).execute();
  },

  /** Every line still VALID becomes `to`; answers the tokens they held. */
  async closeValid(db: Db, batchId: string, to: ItemStatus, at: Date) {
    const rows = await db.updateTable('payout_batch_items').set({ status: to, updated_at: at }).where('batch_id', '=', batchId).where('status', '=', 'VALID').returning('amount_token').execute();
    return rows.map((row) => row.amount_token ?? '0');
  },

  /** PAYING batches, the least recently touched first (the release job). */
  paying(db: Db, limit: number) {
    return db.selectFrom('payout_batches').select(['id']).where('status', '=', 'PAYING').orderBy('updated_at').limit(limit).execute();
  },

  /** Batches still waiting for approval or funding (paused or not) whose prices expired. */
  expired(db: Db, now: Date, limit: number) {
    return db
      .selectFrom('payout_batches')
      .select(['id'])
      .where('status', 'in', UNFUNDED_STATUSES)
      .where('funded_at', 'is', null)
      .where('rate_expires_at', '<=', now)
      .limit(limit)
      .execute();
  },

  /**
   * Batches' addresses the deposit watcher scans (deposits/watcher.ts `instruments`): waiting for
   * their deposit, or funded or ended less than a day ago (a late or second deposit is recorded
   * for return), the least recently scanned first.
   */
  watchedAddresses(db: Db, now: Date, limit: number) {
    return watchedQuery(db, now)
      .select(['d.reference', 'd.owner_address', 'd.token_account', 'd.mint', 'd.token', 'd.last_signature'])
      .orderBy('d.scanned_at', (ob) => ob.asc().nullsFirst())
      .orderBy('d.reference')
      .limit(limit)
      .execute();
  },

  /** All of them, each with the balance its handled signatures left: read every pass in the watcher's balance batches. */
  allWatchedAddresses(db: Db, now: Date) {
    return watchedQuery(db, now).select(['d.reference', 'd.owner_address', 'd.token_account', 'd.mint', 'd.token', 'd.last_signature', 'd.observed_amount']).orderBy('d.reference').execute();
  },

  settings(db: Db, merchantId: string) {
    return db.selectFrom('payout_batch_settings').select(['approval_threshold_brl', 'updated_by_user_id', 'updated_at']).where('merchant_id', '=', merchantId).executeTakeFirst();
  },

  putSettings(db: Db, row: { merchant_id: string; approval_threshold_brl: string | null; updated_by_user_id: string; updated_at: Date }) {
    return db
      .insertInto('payout_batch_settings')
      .values(row)
      .onConflict((oc) => oc.column('merchant_id').doUpdateSet({ approval_threshold_brl: row.approval_threshold_brl, updated_by_user_id: row.updated_by_user_id, updated_at: row.updated_at }))
      .returning(['approval_threshold_brl', 'updated_by_user_id', 'updated_at'])
      .executeTakeFirstOrThrow();
  },
};

/** The batches' addresses still watched (see `watchedAddresses`). */
function watchedQuery(db: Db, now: Date) {
  return db
    .selectFrom('deposit_addresses as d')
    .innerJoin('payout_batches as b', 'b.deposit_address', 'd.owner_address')
    .where((eb) => eb.or([eb('b.status', 'in', ['AWAITING_FUNDING', 'PAUSED']), eb('b.updated_at', '>', new Date(now.getTime() - 86_400_000))]));
}
