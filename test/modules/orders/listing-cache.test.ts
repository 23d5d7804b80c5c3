/**
 * GET /orders pages kept in memory (ORDER_LIST_CACHE_MS, orders/reads/listing.ts): a change made
 * through the service shows at once (its pages dropped once it commits: a page read in between
 * is dropped too), a change made elsewhere (another process) within the TTL,
 * and a page is never shared between merchants or queries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, type TestMerchant, createTestContext } from '../../helpers/app.ts';
import { NOON_SP, WALLET } from './helpers.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { testDriver } from '../../helpers/database.ts';
import { applyTransition } from '../../../src/modules/orders/lifecycle/transitions.ts';
import { inTransaction } from '../../../src/platform/commit-signals.ts';

const TTL_MS = 300;

describe('GET /orders from memory', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ ORDER_LIST_CACHE_MS: String(TTL_MS) }, { clock: new TestClock(new Date(NOON_SP)) });
  });
  afterAll(() => ctx.close());

  const call = (method: 'GET' | 'POST', url: string, who: TestMerchant, payload?: object) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: who.headers, ...(payload ? { payload } : {}) });

  async function merchantWithReceiver(name: string) {
    const merchant = await ctx.createMerchant(name);
    const receiver = (await call('POST', '/receivers', merchant, { type: 'PF', document: randomCpf(), name: 'Ana Lima', email: 'ana@example.com', walletAddress: WALLET })).json();
    await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, merchant, { decision: 'APPROVE' });
    return { merchant, receiver };
  }

  it('shows this process’s creations and transitions at once, and another writer’s within the TTL', async () => {
    const { merchant, receiver } = await merchantWithReceiver('Loja Cache');
    const list = async (query = '') => (await call('GET', `/orders${query}`, merchant)).json();
    expect((await list()).total).toBe(0);

    const created = await call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json();
    expect((await list()).data.map((o: { id: string }) => o.id)).toEqual([order.id]);

    await call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    for (let i = 0; i < 5; i++) await ctx.app.services.orderSteps.runDuePass();
    expect((await list()).data[0].status).toBe('COMPLETED');

    // A writer this process does not hear of (another process): the cached page stays until the TTL.
    await ctx.database.db.updateTable('receivers').set({ name: 'Ana Lima Souza' }).where('id', '=', receiver.id).execute();
    expect((await list()).data[0].receiverName).toBe('Ana Lima');
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50));
    expect((await list()).data[0].receiverName).toBe('Ana Lima Souza');
  });

  // A read outside the open transaction needs a second connection: PostgreSQL only.
  it.runIf(testDriver() === 'postgres')('a page read while a change is not yet committed is dropped once it commits, not kept for the TTL', async () => {
    const { merchant, receiver } = await merchantWithReceiver('Loja Janela');
    const list = async () => (await call('GET', '/orders', merchant)).json();
    const order = (await call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 })).json();
    expect((await list()).data[0].status).toBe('AWAITING_PAYMENT');

    const { services } = ctx.app;
    const transitions = { clock: services.clock, ledger: services.ledger, onOrderChanged: services.orderListing.forgetMerchant, personalData: services.personalData };
    await inTransaction(ctx.database.db, async (trx) => {
      const row = await trx.selectFrom('orders').selectAll().where('id', '=', order.id).forUpdate().executeTakeFirstOrThrow();
      await applyTransition(trx, transitions, row, 'EXPIRED');
      // Another request, before the commit: it reads (and caches) the status still committed.
      expect((await list()).data[0].status).toBe('AWAITING_PAYMENT');
    });
    expect((await list()).data[0].status).toBe('EXPIRED');
  });

  it('keeps pages apart by merchant and by query, and answers the same bytes a fresh read would', async () => {
    const a = await merchantWithReceiver('Loja A');
    const b = await merchantWithReceiver('Loja B');
    await call('POST', '/payin', a.merchant, { receiverId: a.receiver.id, amountBrl: 10 });
    const listA = await call('GET', '/orders', a.merchant);
    const listB = await call('GET', '/orders', b.merchant);
    expect(listA.json().total).toBe(1);
    expect(listB.json().total).toBe(0);
    expect((await call('GET', '/orders?type=PAYOUT', a.merchant)).json().total).toBe(0);
    expect(listA.headers['content-type']).toBe('application/json; charset=utf-8');
    const uncached = await ctx.app.services.orderListing.list(a.merchant.merchantId, { page: 1, limit: 20 });
    expect(listA.json()).toEqual(JSON.parse(JSON.stringify(uncached)));
    expect((await call('GET', '/orders', a.merchant)).body).toBe(listA.body);
  });

  it('does not cache refusals: a bad cursor is 400 every time', async () => {
    const { merchant } = await merchantWithReceiver('Loja C');
    for (let i = 0; i < 2; i++) expect((await call('GET', '/orders?startingAfter=00000000-0000-7000-8000-000000000000', merchant)).statusCode).toBe(400);
  });
});
