/**
 * The worker's claims on `orders` read what they return, not the whole queue (issue 44, bench
 * chain-payin-backlog; migration 0080): in a backlog of 1,000 due PAYINs and 1,000 in transfer,
 * each statement runs under EXPLAIN ANALYZE (in a transaction rolled back) and the rows its scans
 * of `orders` and `order_transactions` read are counted. Before, the lane claim and the batch
 * mates' claim read and sorted every due order (the index on next_step_at alone; the open PAYINs'
 * index), and a batch's settlement walked every order or transfer in flight to find its 15: here
 * 1,008, 2,019 and 3,000 rows; and an order's batch was found by walking every transfer in a batch
 * (the partial index on transfer_batch_id, which the join's condition implies): 1,000 rows. Once
 * as right after a burst (the statistics taken before it: the planner's estimates say the queue
 * is empty), once analyzed.
 */
import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, DatabaseHandle } from '../../src/db/database.ts';
import { ordersRepo } from '../../src/modules/orders/repo.ts';
import type { OrderRow } from '../../src/modules/orders/tables.ts';
import { transferBatchRepo } from '../../src/modules/orders/transfer-batch-repo.ts';
import { openTestDatabase } from '../helpers/database.ts';
import { capturedStatement } from '../sql-snapshots/render.ts';

const DUE = 1000;
const IN_TRANSFER = 1000;
const BATCH = 15;
const MERCHANT = '0190a0e0-0000-7000-8000-0000000000a1';
const RECEIVER = '0190a0e0-0000-7000-8000-0000000000a2';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

class RolledBack extends Error {}

const SCANNED = new Set(['orders', 'order_transactions']);

/** Rows the statement's scans of `orders` and `order_transactions` read (returned or filtered out, every loop), run once and rolled back. */
async function rowsRead(db: Db, run: (db: Db) => Promise<unknown>): Promise<number> {
  const { sql: text, parameters } = await capturedStatement(run);
  const values = parameters.map((value) => (value instanceof Date ? value.toISOString() : value));
  let plan: PlanNode | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (analyze, format json) ${text}`, values));
      const json = rows[0]!['QUERY PLAN'];
      plan = (typeof json === 'string' ? JSON.parse(json) : json)[0].Plan;
      throw new RolledBack();
    })
    .catch((err: unknown) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  const read = (node: PlanNode): number =>
    (SCANNED.has(node['Relation Name'] ?? '') && node['Node Type'].includes('Scan') ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'] : 0) +
    (node.Plans ?? []).reduce((sum, child) => sum + read(child), 0);
  return read(plan!);
}

let handle: DatabaseHandle;
let now: Date;

beforeAll(async () => {
  handle = await openTestDatabase();
  const { db } = handle;
  now = new Date();
  await sql`insert into merchants (id, name, status) values (${MERCHANT}, 'Queue plans', 'ACTIVE')`.execute(db);
  await sql`insert into receivers (id, merchant_id, person_type, document_type, document, name, email, night_transactions_enabled)
    values (${RECEIVER}, ${MERCHANT}, 'PF', 'CPF', 'queue-plans', 'Queue Plans', 'queue-plans@example.com', true)`.execute(db);
  // Settled history, analyzed while nothing is queued (the statistics a burst finds); then the
  // burst: due PAYINs, 20 to a timestamp as a batch's transitions leave them, and PAYINs in
  // transfer in batches of 15.
  const insertOrders = (count: number, status: string, nextStepAt: RawBuilder<unknown>) => sql`
    insert into orders (id, merchant_id, receiver_id, type, status, chain, token, amount_brl, amount_token, exchange_rate,
      platform_fee_percentage, merchant_fee_percentage, platform_fee_amount_brl, merchant_fee_amount_brl, net_amount_brl,
      destination_wallet, limit_day, expires_at, next_step_at, completed_at)
    select gen_random_uuid(), ${MERCHANT}, ${RECEIVER}, 'PAYIN', ${status}, 'solana', 'USDC', 100, 18, 5.4, 0.01, 0.005, 1, 0.5, 98.5,
      '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', current_date, ${now}::timestamptz + interval '15 minutes', ${nextStepAt},
      case when ${status} = 'COMPLETED' then ${now}::timestamptz end
    from generate_series(1, ${count}) i`.execute(db);
  await insertOrders(1000, 'COMPLETED', sql`null`);
  await sql`insert into order_transactions (id, order_id, type, status, amount, currency)
    select gen_random_uuid(), id, 'PIX_IN', 'CONFIRMED', amount_brl, 'BRL' from orders`.execute(db);
  await sql`analyze orders`.execute(db);
  await sql`analyze order_transactions`.execute(db);
  await insertOrders(DUE, 'PAYMENT_RECEIVED', sql`${now}::timestamptz - interval '1 minute' + (i / 20) * interval '1 millisecond'`);
  await insertOrders(IN_TRANSFER, 'TRANSFERRING', sql`null`);
  await sql`insert into order_transactions (id, order_id, type, status, amount, currency, chain, transfer_batch_id, instruction_index)
    select gen_random_uuid(), id, 'CHAIN_TRANSFER', 'PENDING', amount_token, token, chain,
      ('0190a0e0-0000-7000-8000-' || lpad(((row_number() over (order by id) - 1) / ${BATCH})::text, 12, '0'))::uuid,
      ((row_number() over (order by id) - 1) % ${BATCH})::int + 2
    from orders where status = 'TRANSFERRING'`.execute(db);
  await sql`insert into chain_transfer_batches (id, chain, token, tx_hash, wire, last_valid_block_height, status, attempt, order_ids, account_creators, created_at, updated_at)
    select transfer_batch_id, 'solana', 'USDC', 'sig-' || transfer_batch_id, 'wire', 1000, 'PENDING', 1, array_agg(order_id), '{}', now(), now()
    from order_transactions where transfer_batch_id is not null group by transfer_batch_id`.execute(db);
}, 60_000);
afterAll(() => handle?.close());

const batchOf = async (db: Db) => {
  const { rows } = await sql<{ id: string; order_ids: string[] }>`
    select transfer_batch_id as id, array_agg(order_id) as order_ids from order_transactions
    where transfer_batch_id is not null group by transfer_batch_id order by transfer_batch_id offset 30 limit 1`.execute(db);
  return rows[0]!;
};

describe.each([
  ['statistics from before the burst (the queue looks empty)', false],
  ['analyzed after the burst', true],
])("the worker's claims on orders, %s", (_, analyzed) => {
  beforeAll(async () => {
    if (!analyzed) return;
    await sql`analyze orders`.execute(handle.db);
    await sql`analyze order_transactions`.execute(handle.db);
  });

  it('the lane claim reads about the rows it claims, not every due order', async () => {
    const read = await rowsRead(handle.db, (db) => ordersRepo.claimDueSteps(db, now, 8, 30_000, null));
    expect(read).toBeGreaterThanOrEqual(8);
    expect(read).toBeLessThanOrEqual(4 * 8);
  });

  it("a batch leader's mates are read oldest first from their own index, not every open PAYIN", async () => {
    const { db } = handle;
    const leader = (await db.selectFrom('orders').selectAll().where('status', '=', 'PAYMENT_RECEIVED').orderBy('next_step_at').limit(1).executeTakeFirstOrThrow()) as OrderRow;
    const read = await rowsRead(db, (capture) => transferBatchRepo.claimMates(capture, leader, now, 19, 30_000));
    expect(read).toBeGreaterThanOrEqual(19);
    expect(read).toBeLessThanOrEqual(4 * 19);
  });

  it("a batch's settlement locks its own orders, found by their ids, not by walking every order or transfer in flight", async () => {
    const batch = await batchOf(handle.db);
    expect(batch.order_ids).toHaveLength(BATCH);
    expect(await transferBatchRepo.lockMembers(handle.db, batch)).toHaveLength(BATCH);
    const read = await rowsRead(handle.db, (db) => transferBatchRepo.lockMembers(db, batch));
    expect(read).toBeLessThanOrEqual(2 * BATCH);
  });

  it("an order's batch is found from its own transfer, not by walking every transfer in a batch", async () => {
    const batch = await batchOf(handle.db);
    const orderId = batch.order_ids[3]!;
    expect((await transferBatchRepo.ofOrder(handle.db, orderId))?.id).toBe(batch.id);
    const read = await rowsRead(handle.db, (db) => transferBatchRepo.ofOrder(db, orderId));
    expect(read).toBeLessThanOrEqual(2);
  });
});
