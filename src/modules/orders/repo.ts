import { type Insertable, type Updateable, type UpdateQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { claimDue, skipHeld } from '../../platform/leases.ts';
import { plannedEachRun } from '../../db/prepared-statements.ts';
import { ORDER_COLUMNS, ORDER_TRANSACTION_COLUMNS, type OrderRow, type OrderTransactionStatus, type OrderTransactionType, type OrdersTable, type StoredOrderStatus } from './tables.ts';
import type { OrderType } from '../../lib/order-types.ts';
import type { PayerPolicy } from '../merchants/tables.ts';
import { newId } from '../../lib/ids.ts';
import { toFixedText } from '../../lib/money.ts';

export interface MovementRecord {
  orderId: string;
  type: OrderTransactionType;
  status: OrderTransactionStatus;
  amount: string;
  currency: string;
  chain: string | null;
  txHash: string | null;
  /** CHAIN_TRANSFER: the prepared transaction, stored with its first record (before any send). */
  prepared?: { wire: string; lastValidBlockHeight: string } | undefined;
  /** CHAIN_TRANSFER in a batch: the batch and the transfer's instruction index. */
  batch?: { id: string; instructionIndex: number } | undefined;
}

/** The stored transaction of an order's CHAIN_TRANSFER: what a worker sends again or asks about. */
export interface StoredChainTransfer {
  txHash: string;
  wire: string;
  lastValidBlockHeight: string;
}

/**
 * A worker's claim on an order as it made it (the claimed row's columns): the worker that holds it
 * (null: none named) and its lease. Both change with every claim, so together they name one claim.
 */
export type OrderClaim = Pick<OrderRow, 'claimed_by' | 'claimed_until'>;
/** A claimed order as the worker holds it: which order, in which status, under which claim. */
export type ClaimedOrder = Pick<OrderRow, 'id' | 'status'> & OrderClaim;

/**
 * Only while the order is still under `claim`: another worker that took it over (its holder taken
 * for dead, or its lease lapsed) has written its own, and a late write of the first is refused.
 */
function underClaim<O>(qb: UpdateQueryBuilder<Database, 'orders', 'orders', O>, claim: OrderClaim) {
  return qb.where('claimed_by', 'is not distinct from', claim.claimed_by).where('claimed_until', 'is not distinct from', claim.claimed_until);
}

/** Every function takes the transaction (or root db) it runs in, and the time from the caller's clock. */
export const ordersRepo = {
  /**
   * Inserts the order unless its externalId is already taken by the merchant; then returns
   * undefined. The unique index decides, so two creations racing for one externalId cannot both
   * insert (the second waits for the first to commit, then finds the conflict).
   */
  insertUnlessExternalIdTaken(db: Db, order: Insertable<OrdersTable>) {
    return db
      .insertInto('orders')
      .values(order)
      .onConflict((oc) => oc.columns(['merchant_id', 'external_id']).where('external_id', 'is not', null).doNothing())
      .returning(ORDER_COLUMNS)
      .executeTakeFirst();
  },

  find(db: Db, id: string, merchantId?: string) {
    let query = db.selectFrom('orders').select(ORDER_COLUMNS).where('id', '=', id);
    if (merchantId !== undefined) query = query.where('merchant_id', '=', merchantId);
    return query.executeTakeFirst();
  },

  findByExternalId(db: Db, merchantId: string, externalId: string) {
    return db.selectFrom('orders').select('id').where('merchant_id', '=', merchantId).where('external_id', '=', externalId).executeTakeFirst();
  },

  /**
   * A PAYIN's order by its charge, locked, with what the payer policy needs (payer-rules.ts): the
   * merchant's policy and the receiver's document, in the same statement (one round trip).
   */
  async lockByChargeWithPayerPolicy(db: Db, txid: string) {
    const columns = sql.join(ORDER_COLUMNS.map((column) => sql.ref(`o.${column}`)));
    // The receiver's document as stored: sealed (src/lib/personal-data.ts); the caller opens it.
    const result = await sql<OrderRow & { payer_policy: PayerPolicy; receiver_document: string }>`
      select ${columns}, m.payer_policy, r.document as receiver_document
      from orders o join merchants m on m.id = o.merchant_id join receivers r on r.id = o.receiver_id
      where o.pix_txid = ${txid}
      for update of o`.execute(db);
    const row = result.rows[0];
    if (!row) return undefined;
    const { payer_policy: payerPolicy, receiver_document: receiverDocument, ...order } = row;
    return { order: order as OrderRow, payerPolicy, receiverDocument };
  },

  /** Locks the row found by a provider reference, for a notification to act on it once. */
  lockBy(db: Db, column: 'id' | 'pix_txid' | 'deposit_address' | 'provider_transaction_id' | 'refund_id' | 'pix_end_to_end_id', value: string) {
    return db.selectFrom('orders').select(ORDER_COLUMNS).where(column, '=', value).forUpdate().executeTakeFirst();
  },

  /**
   * The guarded transition, for one order or several with the same changes, in one statement: each
   * row changes only while it is still in its `from` status and, when `claim` is given, under the
   * worker's claim as it was made; all of them only with the stored transaction's signature when
   * `guard.txHash` is given, and with no MED claim holding them when `guard.notHeld`. Answers the
   * rows it changed (an order another transaction moved first is absent).
   */
  async transitionAll(
    db: Db,
    rows: ReadonlyArray<{ id: string; from: StoredOrderStatus; claim?: OrderClaim | undefined }>,
    changes: Updateable<OrdersTable>,
    now: Date,
    guard: { txHash?: string | undefined; notHeld?: boolean } = {},
  ): Promise<OrderRow[]> {
    const set = Object.entries({ ...changes, updated_at: now }).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
    const guards = rows.map((r) => sql`(${r.id}::uuid, ${r.from}::text, ${r.claim !== undefined}::boolean, ${r.claim?.claimed_by ?? null}::uuid, ${r.claim?.claimed_until ?? null}::timestamptz)`);
    const result = await sql<OrderRow>`
      update orders as o set ${sql.join(set)}
      from (values ${sql.join(guards)}) as g(id, status, claimed, claimed_by, claimed_until)
      where o.id = g.id and o.status::text = g.status
        and (not g.claimed or (o.claimed_by is not distinct from g.claimed_by and o.claimed_until is not distinct from g.claimed_until))
        ${guard.txHash !== undefined ? sql`and o.tx_hash = ${guard.txHash}` : sql``}
        ${guard.notHeld === true ? sql`and o.dispute_hold = false` : sql``}
      returning ${sql.join(ORDER_COLUMNS.map((column) => sql.ref(`o.${column}`)))}`.execute(db);
    return result.rows;
  },

  awaitingCreatedBefore(db: Db, before: Date, limit: number) {
    return db
      .selectFrom('orders')
      .select(ORDER_COLUMNS)
      .where('status', 'in', ['AWAITING_PAYMENT', 'AWAITING_DEPOSIT'])
      .where('created_at', '<=', before)
      .limit(limit)
      .execute();
  },

  transactionsOf(db: Db, orderIds: string[]) {
    if (orderIds.length === 0) return Promise.resolve([]);
    return db.selectFrom('order_transactions').select(ORDER_TRANSACTION_COLUMNS).where('order_id', 'in', orderIds).orderBy('created_at').orderBy('id').execute();
  },

  /**
   * One record per order and movement type; a later state of the same movement updates it. One
   * statement for all (a batch of transfers' transitions), but it may not update a row twice:
   * movements of the same order and type go in turn.
   */
  async recordTransactions(db: Db, movements: readonly MovementRecord[], now: Date): Promise<void> {
    const keys = new Set(movements.map((m) => `${m.orderId}|${m.type}`));
    const groups = keys.size === movements.length ? [movements] : movements.map((m) => [m]);
    for (const group of groups) {
      if (group.length === 0) continue;
      await db
        .insertInto('order_transactions')
        .values(
          group.map((movement) => ({
            id: newId(),
            order_id: movement.orderId,
            type: movement.type,
            status: movement.status,
            amount: movement.amount,
            currency: movement.currency,
            chain: movement.chain,
            tx_hash: movement.txHash,
            wire: movement.prepared?.wire ?? null,
            last_valid_block_height: movement.prepared?.lastValidBlockHeight ?? null,
            transfer_batch_id: movement.batch?.id ?? null,
            instruction_index: movement.batch?.instructionIndex ?? null,
            created_at: now,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.constraint('order_transactions_order_type_key').doUpdateSet({
            status: sql`excluded.status`,
            tx_hash: sql`coalesce(excluded.tx_hash, order_transactions.tx_hash)`,
            wire: sql`coalesce(excluded.wire, order_transactions.wire)`,
            last_valid_block_height: sql`coalesce(excluded.last_valid_block_height, order_transactions.last_valid_block_height)`,
            transfer_batch_id: sql`coalesce(excluded.transfer_batch_id, order_transactions.transfer_batch_id)`,
            instruction_index: sql`coalesce(excluded.instruction_index, order_transactions.instruction_index)`,
            amount: sql`excluded.amount`,
            updated_at: sql`excluded.updated_at`,
          }),
        )
        .execute();
    }
  },

  /**
   * The transaction an order's CHAIN_TRANSFER stored before sending it (undefined before migration
   * 0023's rows had one), and which attempt it is (1 + the expired ones it replaced).
   */
  async chainTransferOf(db: Db, orderId: string): Promise<(StoredChainTransfer & { attempt: number }) | undefined> {
    const row = await db
      .selectFrom('order_transactions')
      .select(['tx_hash', 'wire', 'last_valid_block_height', 'previous_tx_hashes'])
      .where('order_id', '=', orderId)
      .where('type', '=', 'CHAIN_TRANSFER')
      .executeTakeFirst();
    if (!row?.tx_hash || row.wire === null || row.last_valid_block_height === null) return undefined;
    return { txHash: row.tx_hash, wire: row.wire, lastValidBlockHeight: String(row.last_valid_block_height), attempt: row.previous_tx_hashes.length + 1 };
  },

  /**
   * Replaces a TRANSFERRING order's stored transaction, only while it is still `oldTxHash` (another
   * worker may have replaced it first) and the order still under the worker's `claim`; the old signature is kept in previous_tx_hashes. Both the
   * order's tx_hash and its CHAIN_TRANSFER row change, in the caller's transaction. Answers whether
   * it replaced.
   */
  async replaceChainTransfer(db: Db, orderId: string, oldTxHash: string, next: StoredChainTransfer, now: Date, claim: OrderClaim): Promise<boolean> {
    const order = await db
      .updateTable('orders')
      .set({ tx_hash: next.txHash, updated_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'TRANSFERRING')
      .where('tx_hash', '=', oldTxHash)
      .$call((qb) => underClaim(qb, claim))
      .returning('id')
      .executeTakeFirst();
    if (!order) return false;
    await db
      .updateTable('order_transactions')
      .set({
        tx_hash: next.txHash,
        wire: next.wire,
        last_valid_block_height: next.lastValidBlockHeight,
        previous_tx_hashes: sql<string[]>`array_append(previous_tx_hashes, ${oldTxHash}::text)`,
        updated_at: now,
      })
      .where('order_id', '=', orderId)
      .where('type', '=', 'CHAIN_TRANSFER')
      .where('tx_hash', '=', oldTxHash)
      .execute();
    return true;
  },

  /**
   * What a refund gives back: the PIX actually received, which may differ from the order's
   * amount (a payment of another amount is refunded whole), as BRL text.
   */
  async refundAmount(db: Db, order: Pick<OrderRow, 'id' | 'amount_brl'>): Promise<string> {
    const received = await db.selectFrom('order_transactions').select('amount').where('order_id', '=', order.id).where('type', '=', 'PIX_IN').executeTakeFirst();
    return toFixedText(received?.amount ?? order.amount_brl, 2);
  },

  /** The receivers' names as stored (sealed: the caller opens them). */
  names(db: Db, merchantId: string, receiverIds: string[]) {
    return Promise.all([
      db.selectFrom('merchants').select('name').where('id', '=', merchantId).executeTakeFirstOrThrow(),
      receiverIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom('receivers').select(['id', 'name']).where('id', 'in', [...new Set(receiverIds)]).execute(),
    ]);
  },

  /** Completed BRL volume of one order type in one São Paulo month ('YYYY-MM-01'): the counter of migration 0010, for fee tier selection. */
  async completedVolume(db: Db, merchantId: string, type: OrderType, month: string): Promise<string> {
    const row = await db
      .selectFrom('merchant_completed_volume')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_brl'), sql<string>`0`).as('volume'))
      .where('merchant_id', '=', merchantId)
      .where('type', '=', type)
      .where('month', '=', month)
      .executeTakeFirstOrThrow();
    return String(row.volume);
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

  // --- The worker's bookkeeping: claims, leases, backoff (orders/lifecycle/steps.ts) ---------------------

  /**
   * Claims due steps for one worker instance (`holder`; null: none named): skips rows another live
   * worker holds, leases the rest and names the holder.
   */
  claimDueSteps(db: Db, now: Date, limit: number, leaseMs: number, holder: string | null): Promise<OrderRow[]> {
    return claimDue<OrderRow>(db, { table: 'orders', dueColumn: 'next_step_at', columns: ORDER_COLUMNS, now, limit, leaseMs, holder });
  },

  /** Whether any order's step is due (held or not): a plain read of orders_next_step_idx, far cheaper than a claim that finds nothing. */
  async anyStepDue(db: Db, now: Date): Promise<boolean> {
    const row = await db.selectFrom('orders').select(sql.lit(1).as('due')).where('next_step_at', '<=', now).limit(1).executeTakeFirst();
    return row !== undefined;
  },

  /** The statuses are literals so that even a generic plan matches the partial index orders_expiry_idx. */
  dueExpiries(db: Db, now: Date, limit: number) {
    return db
      .selectFrom('orders')
      .modifyFront(plannedEachRun)
      .select(['id', 'status'])
      .where('status', 'in', [sql.lit<StoredOrderStatus>('AWAITING_PAYMENT'), sql.lit<StoredOrderStatus>('AWAITING_DEPOSIT')])
      .where('expires_at', '<=', now)
      .limit(limit)
      .$call(skipHeld)
      .execute();
  },

  /**
   * Changes a claimed order's schedule only while it is still in its status (it may have moved on
   * meanwhile) and under the claim it was taken with; a claim given back (`claimed_until: null`)
   * names no holder either.
   */
  reschedule(db: Db, claimed: ClaimedOrder, changes: Pick<Updateable<OrdersTable>, 'refund_id' | 'next_step_at' | 'claimed_until' | 'updated_at'>) {
    const released = changes.claimed_until === null ? { claimed_by: null } : {};
    return db
      .updateTable('orders')
      .set({ ...changes, ...released })
      .where('id', '=', claimed.id)
      .where('status', '=', claimed.status)
      .$call((qb) => underClaim(qb, claimed))
      .execute();
  },

  /**
   * The node says a TRANSFERRING order's transaction reached its commitment (transfer-wakeups.ts):
   * its step is due now, whatever its backoff said. Guarded by status and signature (a stale
   * notification changes nothing) and by no claim: `held` says another step runs it now, whose
   * backoff would put the wake-up off, so the caller tries again once it is free.
   */
  transferDueNow(db: Db, orderId: string, txHash: string, now: Date) {
    return db
      .updateTable('orders')
      .set({ next_step_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'TRANSFERRING')
      .where('tx_hash', '=', txHash)
      .returning(sql<boolean>`claimed_until is not null and claimed_until >= ${now}`.as('held'))
      .executeTakeFirst();
  },

  /**
   * Records a failed step and when to retry it, only while this worker still holds the claim it
   * made: another worker may have taken the order over (a lapsed lease, a holder taken for dead).
   */
  backOff(db: Db, order: ClaimedOrder, retry: { attempts: number; at: Date }) {
    return db
      .updateTable('orders')
      .set({ step_attempts: retry.attempts, next_step_at: retry.at, claimed_until: null, claimed_by: null })
      .where('id', '=', order.id)
      .where('status', '=', order.status)
      .$call((qb) => underClaim(qb, order))
      .execute();
  },
};
