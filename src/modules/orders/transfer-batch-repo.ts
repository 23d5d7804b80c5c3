/**
 * The SQL of batched PAYIN transfers (lifecycle/transfer-batch.ts, decision 0053): the batch rows
 * (one signed transaction for several orders), the orders' pointers to them, and the claim of an
 * order's batch mates.
 */
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { leaseEnd, leaseFree } from '../../platform/leases.ts';
import { holderGone } from '../../platform/worker-presence.ts';
import { ORDER_COLUMNS, type ChainTransferBatchesTable, type OrderRow, type TransferBatchStatus } from './tables.ts';

export type TransferBatchRow = Selectable<ChainTransferBatchesTable>;

const BATCH_COLUMNS = [
  'id',
  'chain',
  'token',
  'tx_hash',
  'wire',
  'last_valid_block_height',
  'status',
  'attempt',
  'order_ids',
  'account_creators',
  'carried_fee_lamports',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof ChainTransferBatchesTable>;

export const transferBatchRepo = {
  /**
   * Claims up to `limit` PAYINs that may join `leader`'s transfer: same chain and token, on their
   * way to a transfer (PAYMENT_RECEIVED or SWAPPING), due, not held by a MED claim, and not
   * claimed by a live worker (an order another lane runs is left to it). They are leased to the
   * leader's holder, so the batch's transaction writes them under that claim.
   */
  async claimMates(db: Db, leader: OrderRow, now: Date, limit: number, leaseMs: number): Promise<OrderRow[]> {
    if (limit <= 0) return [];
    const result = await sql<OrderRow>`
      with due as (
        select id from orders
        where type = 'PAYIN' and status in ('PAYMENT_RECEIVED', 'SWAPPING')
          and chain = ${leader.chain} and token = ${leader.token} and id <> ${leader.id}
          and next_step_at <= ${now} and dispute_hold = false and destination_wallet is not null
          and (${leaseFree('claimed_until', now)} or ${holderGone('claimed_by')})
        order by next_step_at, id
        limit ${limit}
        for update skip locked
      )
      update orders as claimed set claimed_until = ${leaseEnd(now, leaseMs)}, claimed_by = ${leader.claimed_by}
      from due where claimed.id = due.id
      returning ${sql.join(ORDER_COLUMNS.map((column) => sql.ref(`claimed.${column}`)))}`.execute(db);
    return result.rows;
  },

  /**
   * Gives claimed mates back, due at once, for any lane, in one statement: each only while it is
   * still in the status and under the claim it was taken with (as ordersRepo.reschedule does for one).
   * Only the claim is undone: a mate was due when claimed and keeps its place in the queue, and an
   * update that changes no indexed column (next_step_at, updated_at are) can be heap-only.
   */
  async releaseMates(db: Db, mates: readonly OrderRow[], now: Date): Promise<void> {
    if (mates.length === 0) return;
    const claims = mates.map((m) => sql`(${m.id}::uuid, ${m.status}::text, ${m.claimed_by}::uuid, ${m.claimed_until}::timestamptz)`);
    await sql`
      update orders as o set next_step_at = least(o.next_step_at, ${now}), claimed_until = null, claimed_by = null
      from (values ${sql.join(claims)}) as c(id, status, claimed_by, claimed_until)
      where o.id = c.id and o.status::text = c.status
        and o.claimed_by is not distinct from c.claimed_by and o.claimed_until is not distinct from c.claimed_until`.execute(db);
  },

  insert(db: Db, row: Insertable<ChainTransferBatchesTable>) {
    return db.insertInto('chain_transfer_batches').values(row).execute();
  },

  /**
   * The batch an order's CHAIN_TRANSFER is in now (undefined: a transfer of its own). The transfer
   * is read on its own, by (order, type): joined to the batches, its `transfer_batch_id` is
   * implied not null, so a planner whose statistics predate a burst took the partial index on it
   * for empty and walked every transfer in a batch to find the order's (test/db/queue-plans.test.ts).
   */
  ofOrder(db: Db, orderId: string): Promise<TransferBatchRow | undefined> {
    return db
      .selectFrom('chain_transfer_batches')
      .select(BATCH_COLUMNS)
      .where('id', '=', (eb) => eb.selectFrom('order_transactions').select('transfer_batch_id').where('order_id', '=', orderId).where('type', '=', 'CHAIN_TRANSFER'))
      .executeTakeFirst();
  },

  /**
   * Points each order's CHAIN_TRANSFER at a re-signed part of its batch and its instruction, the
   * old signature kept, in one statement (a batch's first transaction writes its records pointing
   * at it: the TRANSFERRING transition's movement).
   */
  async point(db: Db, batchId: string, txHash: string, members: ReadonlyArray<{ orderId: string; instructionIndex: number; previousTxHash?: string }>, now: Date) {
    if (members.length === 0) return;
    const rows = members.map((m) => sql`(${m.orderId}::uuid, ${m.instructionIndex}::integer, ${m.previousTxHash ?? null}::text)`);
    await sql`
      update order_transactions as t set transfer_batch_id = ${batchId}, instruction_index = m.instruction_index, tx_hash = ${txHash},
        previous_tx_hashes = case when m.previous_tx_hash is null then t.previous_tx_hashes else array_append(t.previous_tx_hashes, m.previous_tx_hash) end,
        updated_at = ${now}
      from (values ${sql.join(rows)}) as m(order_id, instruction_index, previous_tx_hash)
      where t.order_id = m.order_id and t.type = 'CHAIN_TRANSFER'`.execute(db);
  },

  /**
   * The batch's orders still TRANSFERRING on it, locked until the caller's transaction ends, in
   * the order of their instructions: those a settlement moves. An order moved on (settled by
   * another worker, refunded) or re-batched (split, expired) is not among them.
   */
  async lockMembers(db: Db, batch: Pick<TransferBatchRow, 'id' | 'order_ids'>): Promise<OrderRow[]> {
    const rows = await db
      .selectFrom('orders')
      .innerJoin('order_transactions as t', (join) => join.onRef('t.order_id', '=', 'orders.id').on('t.type', '=', 'CHAIN_TRANSFER'))
      .select(ORDER_COLUMNS.map((column) => `orders.${column}` as const))
      // Found by the batch's own ids (primary key) or its transfers (migration 0080), the status
      // checked on the locked rows: with the status in the statement, a planner that took the
      // in-transit orders for few walked their index to find the batch's (bench chain-payin-backlog).
      .where(sql<boolean>`orders.id = any(${batch.order_ids}::uuid[])`)
      .where('t.transfer_batch_id', '=', batch.id)
      .forUpdate('orders')
      .execute();
    const position = new Map(batch.order_ids.map((id, i) => [id, i]));
    return (rows as OrderRow[]).filter((row) => row.status === 'TRANSFERRING').sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  },

  /** Moves the batch from PENDING to its outcome, only once: answers whether this call did. */
  async settle(db: Db, batchId: string, to: Exclude<TransferBatchStatus, 'PENDING'>, now: Date): Promise<boolean> {
    const row = await db.updateTable('chain_transfer_batches').set({ status: to, updated_at: now }).where('id', '=', batchId).where('status', '=', 'PENDING').returning('id').executeTakeFirst();
    return row !== undefined;
  },

  /** A re-batched order due at once for any lane, its claim dropped (it follows its own part of the split). */
  dueForAnyLane(db: Db, orderId: string, now: Date) {
    return db.updateTable('orders').set({ next_step_at: now, claimed_until: null, claimed_by: null }).where('id', '=', orderId).where('status', '=', 'TRANSFERRING').execute();
  },

  /** A re-batched order's tx_hash follows its new transaction, guarded by the old one. */
  async retarget(db: Db, orderId: string, oldTxHash: string, txHash: string, now: Date): Promise<boolean> {
    const row = await db
      .updateTable('orders')
      .set({ tx_hash: txHash, updated_at: now })
      .where('id', '=', orderId)
      .where('status', '=', 'TRANSFERRING')
      .where('tx_hash', '=', oldTxHash)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },
};
