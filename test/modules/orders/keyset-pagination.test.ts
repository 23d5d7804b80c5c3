/**
 * GET /orders pages: offset pages and keyset pages (startingAfter / endingBefore) walk the same
 * newest-first sequence, each order with its transactions and names, with an exact total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';

const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('GET /orders', () => {
  let ctx: TestContext;
  let merchant: TestMerchant;
  let other: TestMerchant;
  /** Every order of `merchant`, newest first, as the first offset page shows them. */
  let all: Json[];

  const get = (query: string, who: TestMerchant = merchant) => ctx.app.inject({ url: `/api/v1/orders?${query}`, headers: who.headers });

  beforeAll(async () => {
    ctx = await createTestContext({ NIGHT_START: '00:00', NIGHT_END: '00:00' });
    merchant = await ctx.createMerchant('Loja Lista');
    other = await ctx.createMerchant('Outra Loja');
    const receiver = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/receivers',
      headers: merchant.headers,
      payload: { type: 'PJ', document: '11222333000181', name: 'Cliente Lista', email: 'c@example.com', walletAddress: WALLET },
    });
    const receiverId = receiver.json().id as string;
    await ctx.app.inject({ method: 'POST', url: `/api/v1/sandbox/receivers/${receiverId}/kyc`, headers: merchant.headers, payload: { decision: 'APPROVE' } });
    for (let i = 0; i < 7; i++) {
      const created = await ctx.app.inject({ method: 'POST', url: '/api/v1/payin', headers: merchant.headers, payload: { receiverId, amountBrl: 10 + i } });
      expect(created.statusCode, created.body).toBe(201);
    }
    const otherReceiver = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/receivers',
      headers: other.headers,
      payload: { type: 'PF', document: randomCpf(), name: 'Alguém', email: 'a@example.com', walletAddress: WALLET },
    });
    await ctx.app.inject({ method: 'POST', url: `/api/v1/sandbox/receivers/${otherReceiver.json().id}/kyc`, headers: other.headers, payload: { decision: 'APPROVE' } });
    all = (await get('limit=100')).json().data;
  });
  afterAll(() => ctx.close());

  it('answers a page with names, transactions, an exact total and hasMore', async () => {
    const response = await get('limit=3');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ total: 7, page: 1, limit: 3, hasMore: true });
    expect(body.data.map((order: Json) => order.id)).toEqual(all.slice(0, 3).map((order) => order.id));
    expect(body.data[0]).toMatchObject({ merchantName: 'Loja Lista', receiverName: 'Cliente Lista', transactions: [] });
    expect(all.map((order) => order.amountBrl)).toEqual([16, 15, 14, 13, 12, 11, 10]);
  });

  it('walks forward with startingAfter and back with endingBefore over the same sequence', async () => {
    const seen: string[] = [];
    let query = 'limit=3';
    for (;;) {
      const body = (await get(query)).json();
      expect(body.total).toBe(7);
      seen.push(...body.data.map((order: Json) => order.id));
      if (!body.hasMore) break;
      query = `limit=3&startingAfter=${body.data.at(-1).id}`;
    }
    expect(seen).toEqual(all.map((order) => order.id));

    const back = (await get(`limit=2&endingBefore=${all[4]!.id}`)).json();
    expect(back.data.map((order: Json) => order.id)).toEqual([all[2]!.id, all[3]!.id]);
    expect(back.hasMore).toBe(true);
    const first = (await get(`limit=5&endingBefore=${all[1]!.id}`)).json();
    expect(first.data.map((order: Json) => order.id)).toEqual([all[0]!.id]);
    expect(first.hasMore).toBe(false);
  });

  it('keeps filters and their totals on keyset pages', async () => {
    const body = (await get(`limit=2&type=PAYIN&status=AWAITING_PAYMENT&startingAfter=${all[0]!.id}`)).json();
    expect(body.total).toBe(7);
    expect(body.data.map((order: Json) => order.id)).toEqual([all[1]!.id, all[2]!.id]);
    const none = (await get(`limit=2&type=PAYOUT&startingAfter=${all[0]!.id}`)).json();
    expect(none).toMatchObject({ data: [], total: 0, hasMore: false });
  });

  it('shows transactions with decimal amounts and millisecond timestamps', async () => {
    const orderId = all.at(-1)!.id as string;
    const paid = await ctx.app.inject({ method: 'POST', url: `/api/v1/sandbox/orders/${orderId}/pix-payment`, headers: merchant.headers, payload: {} });
    expect(paid.statusCode, paid.body).toBeLessThan(300);
    const listed = (await get('limit=100')).json().data.find((order: Json) => order.id === orderId);
    const single = (await ctx.app.inject({ url: `/api/v1/orders/${orderId}`, headers: merchant.headers })).json();
    expect(listed.transactions.length).toBeGreaterThan(0);
    expect(listed).toEqual(single);
  });

  it('refuses a cursor that is not an order of this merchant, and a cursor with a page', async () => {
    expectErrorBody(await get(`startingAfter=${all[0]!.id}`, other), 400, 'VALIDATION_ERROR');
    expectErrorBody(await get('endingBefore=00000000-0000-7000-8000-000000000000'), 400, 'VALIDATION_ERROR');
    expectErrorBody(await get(`page=2&startingAfter=${all[0]!.id}`), 400, 'VALIDATION_ERROR');
    expectErrorBody(await get(`startingAfter=${all[0]!.id}&endingBefore=${all[1]!.id}`), 400, 'VALIDATION_ERROR');
  });

  it('never shows another merchant’s orders', async () => {
    const body = (await get('limit=100', other)).json();
    expect(body).toMatchObject({ data: [], total: 0, hasMore: false });
  });
});
