/**
 * Which index each statement on `orders` uses, and what an insert and a status change write
 * (docs/architecture/orders-indexes.md). Every statement the repos send on `orders` is captured as
 * sent (through a Kysely that records the text, as test/sql-snapshots/ does) and run under
 * EXPLAIN (ANALYZE, BUFFERS) with its parameters on a seeded database, each in a transaction
 * rolled back. Buffers are the figure to compare: times swing with the shared machine.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/<migrated db> node bench/explain-orders.ts [--seed] [--generic] [--plans]
 *
 * --seed: 200k orders over 20 merchants (one of 124k) through bench/lib/database.ts seedOrders,
 * provider references as the lifecycle leaves them, a few hundred orders in each queue state.
 * --generic: plan as a prepared statement does after five runs (plan_cache_mode = force_generic_plan).
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Db } from '../src/db/database.ts';
import { creationRepo } from '../src/modules/orders/creation/creation-repo.ts';
import { listingRepo } from '../src/modules/orders/reads/listing-repo.ts';
import { reconciliationRepo } from '../src/modules/orders/psp/reconciliation-repo.ts';
import { exportRepo } from '../src/modules/orders/reads/export-repo.ts';
import { ordersRepo } from '../src/modules/orders/repo.ts';
import { overviewRepo } from '../src/modules/overview/repo.ts';
import { treasuryRepo } from '../src/modules/treasury/repo.ts';
import { capturedStatement } from '../test/sql-snapshots/render.ts';
import { analyze, seedOrders, withClient } from './lib/database.ts';

const { values: flags } = parseArgs({ options: { seed: { type: 'boolean', default: false }, generic: { type: 'boolean', default: false }, plans: { type: 'boolean', default: false } } });
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL: a migrated PostgreSQL database');

const merchantId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const BIG = merchantId(0);

async function seed(dbUrl: string): Promise<void> {
  await withClient(dbUrl, async (client) => {
    for (let n = 0; n < 20; n++) await client.query(`insert into merchants (id, name, status) values ($1::uuid, 'Explain ' || $1::text, 'ACTIVE')`, [merchantId(n)]);
  });
  for (let n = 0; n < 20; n++) await seedOrders(dbUrl, merchantId(n), n === 0 ? 124_000 : 4_000, console.log);
  await withClient(dbUrl, async (client) => {
    // The references the lifecycle writes: a PAYOUT's deposit address, a sent payout's id, a refund's id.
    await client.query(`update orders set deposit_address = 'dep' || md5(id::text) where type = 'PAYOUT'`);
    await client.query(`update orders set provider_transaction_id = 'ptx' || md5(id::text) where type = 'PAYOUT' and status = 'COMPLETED'`);
    await client.query(`update orders set refund_id = 'rf' || md5(id::text) where status = 'REFUNDED'`);
    // In flight, as a live system holds them: awaiting money, due steps, and the reconciliation queues.
    const inFlight = [
      ['AWAITING_PAYMENT', 'PAYIN'], ['AWAITING_DEPOSIT', 'PAYOUT'], ['PAYMENT_RECEIVED', 'PAYIN'], ['PIX_SENDING', 'PAYOUT'], ['REFUNDING', 'PAYIN'], ['PIX_SENT_UNCONFIRMED', 'PAYOUT'],
    ] as const;
    for (const [status, type] of inFlight) {
      await client.query(
        `with picked as (select id from orders where status = 'COMPLETED' and type = $2 order by created_at desc limit 300)
         update orders o set status = $1, completed_at = null, updated_at = now() - interval '10 minutes',
           expires_at = now() + (random() * 30 - 5) * interval '1 minute',
           next_step_at = case when $1 in ('PAYMENT_RECEIVED', 'PIX_SENDING') then now() + (random() * 20 - 10) * interval '1 second' end,
           refund_id = case when $1 = 'REFUNDING' then 'rfq' || md5(o.id::text) else o.refund_id end
         from picked where o.id = picked.id`,
        [status, type],
      );
    }
    await client.query('vacuum orders');
  });
  await analyze(dbUrl);
}


if (flags.seed) await seed(url);
const client = new pg.Client({ connectionString: url });
await client.connect();
const first = async <T>(text: string, values: unknown[] = []) => (await client.query(text, values)).rows[0] as T;
const now = new Date();
const deep = (await first<{ id: string }>('select id from orders where merchant_id = $1 order by created_at desc, id desc offset 10000 limit 1', [BIG])).id;
const order = await first<{ id: string; receiver_id: string; pix_txid: string }>(`select id, receiver_id, pix_txid from orders where merchant_id = $1 and type = 'PAYIN' and status = 'COMPLETED' offset 5000 limit 1`, [BIG]);
const payout = await first<{ deposit_address: string; provider_transaction_id: string }>(`select deposit_address, provider_transaction_id from orders where provider_transaction_id is not null offset 500 limit 1`);
const refund = await first<{ refund_id: string }>(`select refund_id from orders where refund_id is not null offset 50 limit 1`);
const awaiting = await first<{ id: string }>(`select id from orders where status = 'AWAITING_PAYMENT' limit 1`);
const externalId = (await first<{ external_id: string }>(`select external_id from orders where merchant_id = $1 and external_id is not null offset 777 limit 1`, [BIG])).external_id;
const txids = (await client.query<{ pix_txid: string }>(`select pix_txid from orders where pix_txid is not null offset 300 limit 20`)).rows.map((row) => row.pix_txid);

const statements: Array<[string, (db: Db) => Promise<unknown>]> = [
  ['ordersRepo.find (GET /orders/:id)', (db) => ordersRepo.find(db, order.id, BIG)],
  ['ordersRepo.findByExternalId', (db) => ordersRepo.findByExternalId(db, BIG, externalId)],
  ['ordersRepo.lockBy id', (db) => ordersRepo.lockBy(db, 'id', order.id)],
  ['ordersRepo.lockBy pix_txid (PIX paid)', (db) => ordersRepo.lockBy(db, 'pix_txid', order.pix_txid)],
  ['ordersRepo.lockBy deposit_address (deposit)', (db) => ordersRepo.lockBy(db, 'deposit_address', payout.deposit_address)],
  ['ordersRepo.lockBy provider_transaction_id', (db) => ordersRepo.lockBy(db, 'provider_transaction_id', payout.provider_transaction_id)],
  ['ordersRepo.lockBy refund_id', (db) => ordersRepo.lockBy(db, 'refund_id', refund.refund_id)],
  ['ordersRepo.transitionAll (one order)', (db) => ordersRepo.transitionAll(db, [{ id: awaiting.id, from: 'AWAITING_PAYMENT' }], { failure_reason: 'explain' }, now)],
  ['ordersRepo.claimDueSteps', (db) => ordersRepo.claimDueSteps(db, now, 8, 30_000, null)],
  ['ordersRepo.dueExpiries', (db) => ordersRepo.dueExpiries(db, now, 50)],
  ['ordersRepo.awaitingCreatedBefore (sandbox)', (db) => ordersRepo.awaitingCreatedBefore(db, now, 50)],
  ['creationRepo.context (externalId taken?)', (db) => creationRepo.context(db, { merchantId: BIG, receiverId: order.receiver_id, type: 'PAYIN', day: '2026-11-25', month: '2026-11-01', externalId, key: null, wallet: null })],
  ['listing page 1', (db) => listingRepo.page(db, BIG, {}, { offset: 0 }, 20)],
  ['listing cursor 10k deep', (db) => listingRepo.page(db, BIG, {}, { startingAfter: deep }, 20)],
  ['listing type=PAYOUT', (db) => listingRepo.page(db, BIG, { type: 'PAYOUT' }, { offset: 0 }, 20)],
  ['listing type=PAYOUT cursor 10k', (db) => listingRepo.page(db, BIG, { type: 'PAYOUT' }, { startingAfter: deep }, 20)],
  ['listing status=FAILED cursor 10k', (db) => listingRepo.page(db, BIG, { status: 'FAILED' }, { startingAfter: deep }, 20)],
  ['listing status=AWAITING_PAYMENT', (db) => listingRepo.page(db, BIG, { status: 'AWAITING_PAYMENT' }, { offset: 0 }, 20)],
  ['listing receiverId', (db) => listingRepo.page(db, BIG, { receiverId: order.receiver_id }, { offset: 0 }, 20)],
  ['listing externalId', (db) => listingRepo.page(db, BIG, { externalId }, { offset: 0 }, 20)],
  ['listing amountBrlMin=100&amountBrlMax=500', (db) => listingRepo.page(db, BIG, { amountBrlMin: '100', amountBrlMax: '500' }, { offset: 0 }, 20)],
  ['listing amountBrlMin=100&amountBrlMax=500 cursor 10k', (db) => listingRepo.page(db, BIG, { amountBrlMin: '100', amountBrlMax: '500' }, { startingAfter: deep }, 20)],
  ['listing amountBrlMin=100&amountBrlMax=500&createdFrom=30 days ago', (db) => listingRepo.page(db, BIG, { amountBrlMin: '100', amountBrlMax: '500', createdFrom: new Date(Date.now() - 30 * 86_400_000).toISOString() }, { offset: 0 }, 20)],
  ['export page (1000 rows)', (db) => exportRepo.page(db, BIG, {}, undefined, 1000)],
  ['export page status=FAILED (1000 rows)', (db) => exportRepo.page(db, BIG, { status: 'FAILED' }, undefined, 1000)],
  ['export moreThan 100k', (db) => exportRepo.moreThan(db, BIG, {}, 100_000)],
  ['overview volumes 30 days', (db) => overviewRepo.volumes(db, BIG, new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10))],
  ['overview volumes 90 days', (db) => overviewRepo.volumes(db, BIG, new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10))],
  ['overview latestFailed 90 days', (db) => overviewRepo.latestFailed(db, BIG, new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10), 5)],
  ['overview statusCounts', (db) => overviewRepo.statusCounts(db, BIG)],
  ['listing cursorExists', (db) => listingRepo.cursorExists(db, BIG, deep)],
  ['reconciliation unpaidByTxid', (db) => reconciliationRepo.unpaidByTxid(db, txids)],
  ['reconciliation requestedRefunds', (db) => reconciliationRepo.requestedRefunds(db, now, 50)],
  ['reconciliation unconfirmedPayouts', (db) => reconciliationRepo.unconfirmedPayouts(db, now, 50)],
  ['treasury openPayins (liquidity check)', (db) => treasuryRepo.openPayins(db)],
];

const ORDERS_INDEX = /\b(orders_[a-z_]+_(?:idx|key)|orders_pkey)\b/g;
console.log(`| statement | indexes on orders | buffers | ms |\n|---|---|---|---|`);
for (const [name, run] of statements) {
  const { sql, parameters } = await capturedStatement(run);
  await client.query('begin');
  try {
    if (flags.generic) await client.query('set local plan_cache_mode = force_generic_plan');
    const values = parameters.map((value) => (value instanceof Date ? value.toISOString() : value));
    const plan = (await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) ${sql}`, values)).rows.map((row) => row['QUERY PLAN']);
    const used = [...new Set(plan.join('\n').match(ORDERS_INDEX) ?? [])].join(', ') || 'none (no scan of orders)';
    const buffers = /shared hit=(\d+)(?: read=(\d+))?/.exec(plan.find((line) => line.includes('Buffers:')) ?? '');
    const time = plan.find((line) => line.startsWith('Execution Time'))?.replace(/[^\d.]/g, '');
    console.log(`| ${name} | ${used} | ${buffers ? Number(buffers[1]) + Number(buffers[2] ?? 0) : '?'} | ${time} |`);
    if (flags.plans) console.log(plan.join('\n'));
  } finally {
    await client.query('rollback');
  }
}

/** What the indexes cost a write: WAL records and buffers per row of a payin insert and of a status change. */
const PAYIN = `insert into orders (id, merchant_id, receiver_id, type, status, chain, token, amount_brl, amount_token, exchange_rate, platform_fee_percentage,
    merchant_fee_percentage, platform_fee_amount_brl, merchant_fee_amount_brl, net_amount_brl, destination_wallet, pix_txid, pix_payment_code, limit_day, expires_at)
  select gen_random_uuid(), $1, $2, 'PAYIN', 'AWAITING_PAYMENT', 'solana', 'USDC', 100, 18.22, 5.4, 0.01, 0.005, 1, 0.5, 98.5,
    '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', md5(random()::text || i), 'pix-copia-e-cola', current_date, now() + interval '15 minutes'
  from generate_series(1, 1000) i`;
const EXPIRE = `update orders set status = 'EXPIRED', updated_at = now() where id in (select id from orders where status in ('AWAITING_PAYMENT', 'AWAITING_DEPOSIT') limit 400)`;
for (const [name, text, values, rows] of [['payin insert', PAYIN, [BIG, order.receiver_id], 1000], ['status change (expiry)', EXPIRE, [], 400]] as const) {
  await client.query('begin');
  try {
    const plan = (await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, wal, costs off) ${text}`, [...values])).rows.map((row) => row['QUERY PLAN']);
    const top = plan.slice(0, 4).join(' ');
    const hit = Number(/shared hit=(\d+)/.exec(top)?.[1]);
    const wal = /WAL: records=(\d+)(?: fpi=\d+)? bytes=(\d+)/.exec(top);
    console.log(`${name}: per row ${(hit / rows).toFixed(1)} buffers, ${(Number(wal?.[1]) / rows).toFixed(1)} WAL records, ${(Number(wal?.[2]) / rows).toFixed(0)} WAL bytes`);
  } finally {
    await client.query('rollback');
  }
}
await client.end();
