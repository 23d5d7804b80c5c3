/**
 * GET /orders: newest first, filters, paging limits, tenancy, and the trigger-maintained
 * counters its totals come from.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { type Json, NOON_SP, ordersTest } from './helpers.ts';

describe('GET /orders', () => {
  const t = ordersTest();

  it('pages newest first with filters; limit over 100 is 400', async () => {
    const own = await t.merchant('Loja Lista');
    const receiver = await t.activeReceiver(own);
    const other = await t.merchantWithReceiver('Loja B');
    await t.payin(other.merchant, { receiverId: other.receiver.id, amountBrl: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      ids.push((await t.payin(own, { receiverId: receiver.id, amountBrl: 10 + i, externalId: `list-${i}` })).id);
    }
    t.clock.advance(1000);
    const payout = await t.payout(own, { receiverId: receiver.id, amountCrypto: 1, sourceToken: 'USDC' });
    t.clock.set(NOON_SP);
    const all = (await t.call('GET', '/orders?limit=2', own)).json();
    expect(all).toMatchObject({ total: 4, page: 1, limit: 2 });
    expect(all.data.map((o: Json) => o.id)).toEqual([payout.id, ids[2]]);
    expect((await t.call('GET', '/orders?type=PAYIN', own)).json().total).toBe(3);
    expect((await t.call('GET', '/orders?status=AWAITING_DEPOSIT', own)).json().data.map((o: Json) => o.id)).toEqual([payout.id]);
    expect((await t.call('GET', '/orders?externalId=list-1', own)).json().data.map((o: Json) => o.id)).toEqual([ids[1]]);
    expect((await t.call('GET', `/orders?receiverId=${receiver.id}&page=2&limit=3`, own)).json().data.map((o: Json) => o.id)).toEqual([ids[0]]);
    const from = new Date(Date.parse(NOON_SP) + 2500).toISOString();
    expect((await t.call('GET', `/orders?createdFrom=${from}`, own)).json().total).toBe(2);
    const theirs = (await t.call('GET', '/orders', other.merchant)).json().data;
    expect(theirs).toHaveLength(1);
    expect(theirs.every((o: Json) => o.merchantId === other.merchant.merchantId)).toBe(true);
    expect(expectErrorBody(await t.call('GET', '/orders?limit=101', own), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.limit']);
    expectErrorBody(await t.call('GET', '/orders?status=DONE', own), 400, 'VALIDATION_ERROR');
    // A leap second is valid RFC 3339 but no JavaScript instant: refused, not a 500.
    expect(expectErrorBody(await t.call('GET', '/orders?createdFrom=2026-01-01T23:59:60Z', own), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.createdFrom']);
  });

  it('the order counters behind GET /orders totals agree with the rows after every ending of both lifecycles', async () => {
    const merchant = await t.merchant();
    await t.everyEnding(merchant);
    const counted = await sql<{ merchant_id: string; type: string; status: string; count: number }>`
      select merchant_id, type, status, count(*)::int as count from orders group by 1, 2, 3 order by 1, 2, 3`.execute(t.ctx.database.db);
    const counters = await sql<{ merchant_id: string; type: string; status: string; count: number }>`
      select merchant_id, type, status, sum(count)::int as count from merchant_order_counts group by 1, 2, 3 having sum(count) <> 0 order by 1, 2, 3`.execute(t.ctx.database.db);
    expect(counted.rows.length).toBeGreaterThan(5);
    expect(counters.rows).toEqual(counted.rows);
    expect((await t.call('GET', '/orders', merchant)).json().total).toBe(8);
    expect((await t.call('GET', '/orders?type=PAYOUT&status=FAILED', merchant)).json().total).toBe(2);
  });
});
