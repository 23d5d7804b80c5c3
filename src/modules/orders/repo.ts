import { type Insertable, type Updateable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OrderRow, StoredOrderStatus, OrderTransactionType, OrdersTable } from './tables.ts';
import type { OrderType } from '../../lib/order-types.ts';
import type { QuotesTable } from '../quotes/tables.ts';
import { claimDue } from '../../db/leases.ts';
import { newId } from '../../lib/ids.ts';

/** Every function takes the transaction (or root db) it runs in. */
export const ordersRepo = {
  insert(db: Db, order: Insertable<OrdersTable>) {
    return db.insertInto('orders').values(order).returningAll().executeTakeFirstOrThrow();
  },

  find(db: Db, id: string, merchantId?: string) {
    let query = db.selectFrom('orders').selectAll().where('id', '=', id);
    if (merchantId !== undefined) query = query.where('merchant_id', '=', merchantId);
    return query.executeTakeFirst();
  },

  findByExternalId(db: Db, merchantId: string, externalId: string) {
    return db.selectFrom('orders').select('id').where('merchant_id', '=', merchantId).where('external_id', '=', externalId).executeTakeFirst();
  },

  /** Locks the row found by a provider reference, for a notification to act on it once. */
  lockBy(db: Db, column: 'id' | 'pix_txid' | 'deposit_address' | 'provider_transaction_id' | 'refund_id', value: string) {
    return db.selectFrom('orders').selectAll().where(column, '=', value).forUpdate().executeTakeFirst();
  },

  /** The guarded transition: changes the order only while it is still in `from`. */
  transition(db: Db, id: string, from: StoredOrderStatus, changes: Updateable<OrdersTable>, now: Date) {
    return db
      .updateTable('orders')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', from)
      .returningAll()
      .executeTakeFirst();
  },

  /** A worker's bookkeeping on an order still in `status` (no transition: no event, no record). */
  updateIfStatus(db: Db, id: string, status: StoredOrderStatus, changes: Updateable<OrdersTable>, now?: Date) {
    return db
      .updateTable('orders')
      .set({ ...changes, ...(now ? { updated_at: now } : {}) })
      .where('id', '=', id)
      .where('status', '=', status)
      .execute();
  },

  /** After a failed step: try again at `at`, if this worker still holds the lease it claimed with. */
  rescheduleStep(db: Db, order: Pick<OrderRow, 'id' | 'status' | 'claimed_until'>, next: { attempts: number; at: Date }) {
    return db
      .updateTable('orders')
      .set({ step_attempts: next.attempts, next_step_at: next.at, claimed_until: null })
      .where('id', '=', order.id)
      .where('status', '=', order.status)
      .where('claimed_until', '=', order.claimed_until!)
      .execute();
  },

  transactionsOf(db: Db, orderIds: string[]) {
    if (orderIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('order_transactions').selectAll().where('order_id', 'in', orderIds).orderBy('created_at').orderBy('id').execute();
  },

  /** One record per order and movement type; a later state of the same movement updates it. */
  recordTransaction(
    db: Db,
    movement: { orderId: string; type: OrderTransactionType; status: 'PENDING' | 'CONFIRMED' | 'FAILED'; amount: string; currency: string; chain: string | null; txHash: string | null },
    now: Date,
  ) {
    return db
      .insertInto('order_transactions')
      .values({
        id: newId(),
        order_id: movement.orderId,
        type: movement.type,
        status: movement.status,
        amount: movement.amount,
        currency: movement.currency,
        chain: movement.chain,
        tx_hash: movement.txHash,
      })
      .onConflict((oc) =>
        oc.constraint('order_transactions_order_type_key').doUpdateSet({
          status: movement.status,
          tx_hash: sql`coalesce(excluded.tx_hash, order_transactions.tx_hash)`,
          amount: movement.amount,
          updated_at: now,
        }),
      )
      .execute();
  },

  names(db: Db, merchantId: string, receiverIds: string[]) {
    return Promise.all([
      db.selectFrom('merchants').select('name').where('id', '=', merchantId).executeTakeFirstOrThrow(),
      receiverIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom('receivers').select(['id', 'name']).where('id', 'in', [...new Set(receiverIds)]).execute(),
    ]);
  },

  /** Completed BRL volume of one order type since `from` (fee tier selection). */
  async completedVolume(db: Db, merchantId: string, type: OrderType, from: Date): Promise<string> {
    const row = await db
      .selectFrom('orders')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_brl'), sql<string>`0`).as('volume'))
      .where('merchant_id', '=', merchantId)
      .where('type', '=', type)
      .where('status', '=', 'COMPLETED')
      .where('completed_at', '>=', from)
      .executeTakeFirstOrThrow();
    return String(row.volume);
  },

  insertQuote(db: Db, quote: Insertable<QuotesTable>) {
    return db.insertInto('quotes').values(quote).returningAll().executeTakeFirstOrThrow();
  },

  lockQuote(db: Db, merchantId: string, id: string) {
    return db.selectFrom('quotes').selectAll().where('id', '=', id).where('merchant_id', '=', merchantId).forUpdate().executeTakeFirst();
  },

  markQuoteUsed(db: Db, id: string, orderId: string) {
    return db.updateTable('quotes').set({ used_by_order_id: orderId }).where('id', '=', id).where('used_by_order_id', 'is', null).executeTakeFirst();
  },

  /**
   * Counts one order against a receiver's day, atomically: the row lock of the upsert makes
   * concurrent orders queue, and the WHERE refuses any that would pass a limit. Returns false
   * when a limit would be exceeded (nothing changes then).
   */
  async reserveDailyUsage(db: Db, input: { receiverId: string; day: string; amountBrl: string; maxCount: number | null; maxAmountBrl: string | null }) {
    const result = await sql<{ order_count: number }>`
      insert into receiver_daily_usage as u (receiver_id, day, order_count, amount_brl)
      select ${input.receiverId}, ${input.day}::date, 1, ${input.amountBrl}::numeric
      where (${input.maxCount}::int is null or 1 <= ${input.maxCount}::int)
        and (${input.maxAmountBrl}::numeric is null or ${input.amountBrl}::numeric <= ${input.maxAmountBrl}::numeric)
      on conflict (receiver_id, day) do update
        set order_count = u.order_count + 1, amount_brl = u.amount_brl + excluded.amount_brl
        where (${input.maxCount}::int is null or u.order_count + 1 <= ${input.maxCount}::int)
          and (${input.maxAmountBrl}::numeric is null or u.amount_brl + excluded.amount_brl <= ${input.maxAmountBrl}::numeric)
      returning u.order_count`.execute(db);
    return result.rows.length === 1;
  },

  releaseDailyUsage(db: Db, input: { receiverId: string; day: string; amountBrl: string }) {
    return sql`
      update receiver_daily_usage
      set order_count = greatest(order_count - 1, 0), amount_brl = greatest(amount_brl - ${input.amountBrl}::numeric, 0)
      where receiver_id = ${input.receiverId} and day = ${input.day}::date`.execute(db);
  },

  /** Claims due steps for one worker: skips rows another worker holds, leases the rest. */
  claimDueSteps(db: Db, now: Date, limit: number, leaseMs: number): Promise<OrderRow[]> {
    return claimDue<OrderRow>(db, { table: 'orders', dueColumn: 'next_step_at', now, limit, leaseMs });
  },

  /** Due expiries: orders still awaiting money past their expiry. */
  dueExpiries(db: Db, now: Date, limit: number) {
    return db
      .selectFrom('orders')
      .select(['id', 'status'])
      .where('status', 'in', ['AWAITING_PAYMENT', 'AWAITING_DEPOSIT'])
      .where('expires_at', '<=', now)
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
  },
};
