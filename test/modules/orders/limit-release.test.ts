/**
 * A PAYOUT that ends before its deposit counts gives the receiver's daily limit back, like a
 * PAYIN that expires unpaid (state-machine.ts, BEFORE_MONEY): otherwise every abandoned payout
 * would hold part of the receiver's day until midnight (issue 24, item 8).
 */
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { ordersTest } from './helpers.ts';

describe('PAYOUT ending before money gives the daily limit back', () => {
  const t = ordersTest();

  /** A receiver whose day holds one payout of 100 USDC (540 BRL at the sandbox rate), by count and by amount. */
  async function oneOrderADay() {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const limits = await t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, { dailyLimitBrl: 600, dailyTransactionLimit: 1, nightTransactionsEnabled: false });
    expect(limits.statusCode, limits.body).toBe(200);
    const payout = () => t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC' });
    const first = await payout();
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ status: 'AWAITING_DEPOSIT', amountBrl: 540 });
    expectErrorBody(await payout(), 422, 'LIMIT_EXCEEDED');
    return { merchant, receiver, order: first.json(), payout };
  }

  it('a payout with no deposit by expiresAt expires, and the receiver can order again the same day', async () => {
    const { merchant, order, payout } = await oneOrderADay();
    t.clock.set(new Date(Date.parse(order.expiresAt) - 1_000).toISOString());
    await t.drive(1);
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('AWAITING_DEPOSIT');
    expectErrorBody(await payout(), 422, 'LIMIT_EXCEEDED');
    t.clock.advance(1_000);
    await t.drive(1);
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('EXPIRED');
    const again = await payout();
    expect(again.statusCode, again.body).toBe(201);
    // Released once: the new order holds the day again.
    expectErrorBody(await payout(), 422, 'LIMIT_EXCEEDED');
  });

  it('a payout failed by a deposit below the minimum gives the limit back too', async () => {
    const { merchant, order, payout } = await oneOrderADay();
    const failed = (await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, { amountCrypto: 0.1 })).json();
    expect(failed.status).toBe('FAILED');
    const again = await payout();
    expect(again.statusCode, again.body).toBe(201);
  });
});
