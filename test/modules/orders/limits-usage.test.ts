/**
 * GET /receivers/{id}/limits shows today's usage (`usageDay`, `ordersToday`, `usedTodayBrl`):
 * the same count and total order creation checks the limits against, so what the dashboard shows
 * as left is what the next order may use.
 */
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { ordersTest } from './helpers.ts';

describe('limits usage today', () => {
  const t = ordersTest();

  it('counts payins and payouts of the São Paulo day, and the next order is refused exactly at the limit it shows', async () => {
    t.clock.set('2026-11-24T15:00:00.000Z'); // 12:00 in São Paulo
    const { merchant, receiver } = await t.merchantWithReceiver();
    const limitsUrl = `/receivers/${receiver.id}/limits`;
    const before = (await t.call('GET', limitsUrl, merchant)).json();
    expect(before).toMatchObject({ receiverId: receiver.id, usageDay: '2026-11-24', ordersToday: 0, usedTodayBrl: 0 });

    const put = await t.call('PUT', limitsUrl, merchant, { dailyLimitBrl: 700, dailyTransactionLimit: 3, nightTransactionsEnabled: false });
    expect(put.json()).toMatchObject({ dailyLimitBrl: 700, usageDay: '2026-11-24', ordersToday: 0, usedTodayBrl: 0 });
    expect((await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC' })).statusCode).toBe(201); // 540 BRL
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 150.25 })).statusCode).toBe(201);
    const used = (await t.call('GET', limitsUrl, merchant)).json();
    expect(used).toEqual({
      receiverId: receiver.id,
      dailyLimitBrl: 700,
      dailyTransactionLimit: 3,
      nightTransactionsEnabled: false,
      usageDay: '2026-11-24',
      ordersToday: 2,
      usedTodayBrl: 690.25,
    });

    // 9.75 left by the page's arithmetic: one cent more is refused, the rest fits.
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 9.76 }), 422, 'LIMIT_EXCEEDED');
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 9.75 })).statusCode).toBe(201);
    expect((await t.call('GET', limitsUrl, merchant)).json()).toMatchObject({ ordersToday: 3, usedTodayBrl: 700 });

    // The next São Paulo day (03:00 UTC is midnight there) starts from nothing.
    t.clock.set('2026-11-25T03:00:00.000Z');
    expect((await t.call('GET', limitsUrl, merchant)).json()).toMatchObject({ usageDay: '2026-11-25', ordersToday: 0, usedTodayBrl: 0 });
  });

  it("another merchant's receiver is 404, usage included", async () => {
    const { receiver } = await t.merchantWithReceiver();
    const { merchant: other } = await t.merchantWithReceiver();
    expectErrorBody(await t.call('GET', `/receivers/${receiver.id}/limits`, other), 404, 'NOT_FOUND');
  });
});
