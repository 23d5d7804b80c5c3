/**
 * Exactly one token transfer per PAYIN, through crashes and a failing chain (transfer-steps.ts):
 * the worker's steps over a chain that keeps the port's promises with faults (fake-chain.ts). Each
 * case ends with ONE transfer landed for the order, the order COMPLETED, and the SOL postings equal
 * to what the chain charged.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createOrderSteps } from '../../../src/modules/orders/steps.ts';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import { FAKE_FEE_LAMPORTS, FAKE_RENT_LAMPORTS, createFakeChain } from './fake-chain.ts';
import { type Json, ordersTest } from './helpers.ts';

const sol = (lamports: bigint) => (Number(lamports) / 1e9).toFixed(9);

describe('a PAYIN transfers exactly once', () => {
  const t = ordersTest();

  /** A paid PAYIN (PAYMENT_RECEIVED), the fake chain and the worker's steps over it. */
  async function paidPayin() {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 });
    expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
    const fake = createFakeChain();
    const { services } = t.ctx.app;
    const steps = createOrderSteps({ db: t.ctx.database.db, clock: t.clock, ledger: services.ledger, pix: services.adapters.pix, chain: fake.adapter });
    const status = async () => (await t.call('GET', `/orders/${order.id}`, merchant)).json().status as string;
    /** Worker passes, a clock tick between them (past any backoff), until the order leaves TRANSFERRING or `passes` run out. */
    const work = async (passes = 12, tickMs = 1000) => {
      for (let i = 0; i < passes; i++) {
        await steps.runDuePass().catch(() => undefined);
        if ((await status()) === 'COMPLETED') return;
        t.clock.advance(tickMs);
      }
    };
    return { order, fake, steps, status, work };
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
});
