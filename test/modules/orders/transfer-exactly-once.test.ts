/**
 * Exactly one token transfer per PAYIN, through crashes and a failing chain (transfer-steps.ts):
 * the worker's steps over a chain that keeps the port's promises with faults (fake-chain.ts). Each
 * case ends with ONE transfer landed for the order, the order COMPLETED, and the SOL postings equal
 * to what the chain charged.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { transferMetrics } from '../../../src/modules/orders/lifecycle/metrics.ts';
import { createOrderSteps } from '../../../src/modules/orders/lifecycle/steps.ts';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import { FAKE_FEE_LAMPORTS, FAKE_RENT_LAMPORTS, createFakeChain } from './fake-chain.ts';
import { type Json, ordersTest } from './helpers.ts';

const sol = (lamports: bigint) => (Number(lamports) / 1e9).toFixed(9);

describe('a PAYIN transfers exactly once', () => {
  const t = ordersTest();

  /** A paid PAYIN (PAYMENT_RECEIVED), the fake chain and the worker's steps over it (with their log and counters). */
  async function paidPayin(options: { maxAttempts?: number } = {}) {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 });
    expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
    const fake = createFakeChain();
    const { services } = t.ctx.app;
    const logs = { warn: [] as Json[], error: [] as Json[] };
    const log = { warn: (obj: object) => logs.warn.push(obj), error: (obj: object) => logs.error.push(obj), info: () => undefined };
    const metrics = transferMetrics(new Registry());
    const steps = createOrderSteps({
      db: t.ctx.database.db,
      clock: t.clock,
      ledger: services.ledger,
      pix: services.adapters.pix,
      chain: fake.adapter,
      personalData: services.personalData,
      log,
      metrics,
      ...(options.maxAttempts ? { transferMaxAttempts: options.maxAttempts } : {}),
    });
    const status = async () => (await t.call('GET', `/orders/${order.id}`, merchant)).json().status as string;
    /** Worker passes, a clock tick between them (past any backoff), until the order leaves TRANSFERRING or `passes` run out. */
    const work = async (passes = 12, tickMs = 1000) => {
      for (let i = 0; i < passes; i++) {
        await steps.runDuePass().catch(() => undefined);
        if ((await status()) === 'COMPLETED') return;
        t.clock.advance(tickMs);
      }
    };
    return { order, fake, steps, status, work, logs, metrics };
  }

  const chainTransferRow = (orderId: string) =>
    t.ctx.database.db.selectFrom('order_transactions').select(['status', 'tx_hash', 'previous_tx_hashes']).where('order_id', '=', orderId).where('type', '=', 'CHAIN_TRANSFER').executeTakeFirst();

  /** Given up: REFUNDING (or past it), nothing landed, no chain costs, the counter up by one for `reason`. */
  async function expectRefundedUnlanded(order: Json, fake: ReturnType<typeof createFakeChain>, metrics: ReturnType<typeof transferMetrics>, reason: 'expired' | 'refused') {
    const row = (await ordersRepo.find(t.ctx.database.db, order.id as string))!;
    expect(['REFUNDING', 'REFUNDED']).toContain(row.status);
    expect(fake.landedFor(order.id as string)).toEqual([]);
    const costs = await t.ctx.database.db.selectFrom('ledger_entries').select('id').where('reference_id', '=', order.id as string).where('kind', '=', 'CHAIN_COSTS').execute();
    expect(costs).toEqual([]);
    expect((await metrics.abandoned.get()).values).toEqual([{ labels: { reason }, value: 1 }]);
    return row;
  }

  async function expectOneTransferAndCosts(order: Json, fake: ReturnType<typeof createFakeChain>, rent = FAKE_RENT_LAMPORTS) {
    const landed = fake.landedFor(order.id);
    expect(landed).toHaveLength(1);
    const row = await ordersRepo.find(t.ctx.database.db, order.id as string);
    expect(row?.status).toBe('COMPLETED');
    expect(row?.tx_hash).toBe(landed[0]!.txHash);
    const postings = await sql<{ code: string; currency: string; amount: string }>`
      select a.code, p.currency, p.amount::text as amount
      from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where e.reference_id = ${order.id} and e.kind = 'CHAIN_COSTS' order by a.code`.execute(t.ctx.database.db);
    expect(postings.rows.map((p) => [p.code, p.currency, Number(p.amount).toFixed(9)])).toEqual(
      [
        ...(rent > 0n ? [['account_rent', 'SOL', sol(rent)]] : []),
        ['network_fees', 'SOL', sol(FAKE_FEE_LAMPORTS)],
        ['token_treasury', 'SOL', sol(-(FAKE_FEE_LAMPORTS + rent))],
      ],
    );
  }

  it('stores the signed transaction before sending: a worker that dies after storing leaves the next one to send the same bytes', async () => {
    const { order, fake, steps, work } = await paidPayin();
    // PAYMENT_RECEIVED → SWAPPING → (prepare, store) TRANSFERRING, then the worker dies.
    const claimed = await ordersRepo.find(t.ctx.database.db, order.id as string);
    const swapping = await steps.runStep(claimed!);
    const transferring = await steps.runStep(swapping!);
    expect(transferring?.status).toBe('TRANSFERRING');
    expect(fake.counts).toEqual({ prepares: 1, sends: 0 });
    const stored = await ordersRepo.chainTransferOf(t.ctx.database.db, order.id as string);
    expect(stored).toMatchObject({ txHash: transferring!.tx_hash, wire: expect.any(String), lastValidBlockHeight: expect.stringMatching(/^\d+$/) });
    // Its lease lapses; the next worker finds the stored transaction and sends it.
    t.clock.advance(31_000);
    await work();
    expect(fake.counts.prepares).toBe(1);
    await expectOneTransferAndCosts(order, fake);
  });

  it('a dropped transaction is sent again, the same bytes, never rebuilt while it may land', async () => {
    const { order, fake, work } = await paidPayin();
    fake.faults.dropSends = 3;
    await work();
    expect(fake.counts.prepares).toBe(1);
    expect(fake.counts.sends).toBeGreaterThanOrEqual(4);
    await expectOneTransferAndCosts(order, fake);
  });

  it('an expired blockhash (unknown to the chain, past its last valid height) is replaced once, the old signature kept', async () => {
    const { order, fake, status, work } = await paidPayin();
    fake.faults.dropSends = 1_000_000;
    await work(3);
    expect(await status()).toBe('TRANSFERRING');
    const old = await ordersRepo.chainTransferOf(t.ctx.database.db, order.id as string);
    fake.advanceBlocks(151n);
    fake.faults.dropSends = 0;
    await work();
    expect(fake.counts.prepares).toBe(2);
    const replaced = await t.ctx.database.db.selectFrom('order_transactions').select(['tx_hash', 'previous_tx_hashes']).where('order_id', '=', order.id as string).where('type', '=', 'CHAIN_TRANSFER').executeTakeFirstOrThrow();
    expect(replaced.previous_tx_hashes).toEqual([old!.txHash]);
    expect(replaced.tx_hash).not.toBe(old!.txHash);
    await expectOneTransferAndCosts(order, fake);
  });

  it('RPC 503 for a while, then recovery: the order completes with one transfer', async () => {
    const { order, fake, status, work } = await paidPayin();
    fake.faults.unavailableCalls = 6;
    await work(3, 1000);
    expect(['SWAPPING', 'PAYMENT_RECEIVED', 'TRANSFERRING']).toContain(await status());
    // The backoff doubles per failed attempt: ticks of a minute reach the retries.
    await work(12, 60_000);
    expect(fake.faults.unavailableCalls).toBe(0);
    await expectOneTransferAndCosts(order, fake);
  });

  it('a transfer that never lands is rebuilt up to CHAIN_TRANSFER_MAX_ATTEMPTS times, then the order is refunded: each rebuild warned, the end an error and a counter', async () => {
    const { order, fake, work, logs, metrics } = await paidPayin({ maxAttempts: 3 });
    fake.faults.dropSends = 1_000_000;
    for (let attempt = 1; attempt <= 3; attempt++) {
      await work(2);
      // Past its last valid block height, unknown to the chain: it provably never landed.
      fake.advanceBlocks(151n);
    }
    await work(2);
    expect(fake.counts.prepares).toBe(3);
    const row = await expectRefundedUnlanded(order, fake, metrics, 'expired');
    expect(row.failure_reason).toBe('On-chain transfer abandoned: 3 transactions expired without landing; the tokens never left the treasury');
    const transfer = await chainTransferRow(order.id as string);
    expect(transfer).toMatchObject({ status: 'FAILED', tx_hash: row.tx_hash });
    expect(transfer!.previous_tx_hashes).toHaveLength(2);
    expect(logs.warn.map((entry) => [entry.orderId, entry.attempt, entry.maxAttempts])).toEqual([
      [order.id, 2, 3],
      [order.id, 3, 3],
    ]);
    expect(logs.error).toEqual([{ orderId: order.id, attempts: 3, maxAttempts: 3, lastTxHash: row.tx_hash }]);
    expect((await metrics.rebuilt.get()).values[0]?.value).toBe(2);
    // The refund asked for, as for any REFUNDING order; the merchant is told why.
    expect(row.refund_id).toEqual(expect.any(String));
    const events = await t.ctx.database.db.selectFrom('events').select('payload').where('merchant_id', '=', row.merchant_id).where('event_type', '=', 'order.refunding').execute();
    const payloads = events.map((event) => (typeof event.payload === 'string' ? JSON.parse(event.payload) : event.payload) as Json);
    expect(payloads.filter((payload) => payload.orderId === order.id)).toEqual([expect.objectContaining({ status: 'REFUNDING', failureReason: row.failure_reason })]);
  });

  it('a transfer the adapter refuses before signing (no retry can cure it) refunds the order at once: nothing was signed or sent', async () => {
    const { order, fake, work, logs, metrics } = await paidPayin();
    fake.faults.refuse = 'the USDC mint does not exist on this cluster';
    await work(2);
    expect(fake.counts).toEqual({ prepares: 0, sends: 0 });
    const row = await expectRefundedUnlanded(order, fake, metrics, 'refused');
    expect(row.failure_reason).toBe('On-chain transfer refused before signing; the tokens never left the treasury');
    expect(row.tx_hash).toBeNull();
    expect(await chainTransferRow(order.id as string)).toMatchObject({ status: 'FAILED', tx_hash: null });
    expect(logs.error).toEqual([{ orderId: order.id, refusal: 'the USDC mint does not exist on this cluster' }]);
  });

  it('a refusal when rebuilding an expired transfer refunds too (the old one provably never landed)', async () => {
    const { order, fake, work, metrics } = await paidPayin();
    fake.faults.dropSends = 1_000_000;
    await work(2);
    const old = await ordersRepo.chainTransferOf(t.ctx.database.db, order.id as string);
    fake.advanceBlocks(151n);
    fake.faults.refuse = 'no mint configured for USDC (CHAIN_TOKEN_MINTS)';
    await work(2);
    expect(fake.counts.prepares).toBe(1);
    await expectRefundedUnlanded(order, fake, metrics, 'refused');
    expect(await chainTransferRow(order.id as string)).toMatchObject({ status: 'FAILED', tx_hash: old!.txHash, previous_tx_hashes: [] });
  });

  it('a node that cannot be reached is transient: the order backs off in SWAPPING, never refunded', async () => {
    const { order, fake, status, work, metrics } = await paidPayin();
    fake.faults.unavailableCalls = 1_000_000;
    await work(6, 60_000);
    expect(await status()).toBe('SWAPPING');
    const row = (await ordersRepo.find(t.ctx.database.db, order.id as string))!;
    expect(row.step_attempts).toBeGreaterThan(1);
    expect((await metrics.abandoned.get()).values).toEqual([]);
  });
});
