/**
 * A PAYIN's PIX is judged by when the PSP says it was paid (its record's `horario`,
 * src/modules/orders/lifecycle/arrival-time.ts), not by whether the expiry pass has run yet
 * (issue 38 item 7, as PAYOUT deposits are by their block time): paid at or after expiresAt, it
 * ends exactly as a PIX on an order the pass already EXPIRED does (refunded, the limit given
 * back); paid before, it is credited however late its notification comes.
 */
import { describe, expect, it } from 'vitest';
import type { TestMerchant } from '../../helpers/app.ts';
import { arrivalTime, arrivedAfterExpiry } from '../../../src/modules/orders/lifecycle/arrival-time.ts';
import { type Json, ordersTest } from './helpers.ts';

describe('a PAYIN PIX judged by its time of payment', () => {
  const t = ordersTest();
  const services = () => t.ctx.app.services;
  const row = (order: Json) => t.ctx.database.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
  const pay = (merchant: TestMerchant, order: Json) => t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
  /** The PSP records the payment now; its notification is held back (handed on by the test later). */
  const payQuietly = async (order: Json) => services().adapters.sandbox.pix.simulateChargePayment((await row(order)).pix_txid!);

  /** What an order's path left, without what names the order itself. */
  async function outcome(merchant: TestMerchant, order: Json) {
    const current = (await t.call('GET', `/orders/${order.id}`, merchant)).json();
    return {
      status: current.status,
      failureReason: current.failureReason,
      transactions: current.transactions.map((tx: Json) => [tx.type, tx.status, tx.amount]),
      events: (await t.events(order.id)).map((e) => [e.event_type, e.payload.status, e.payload.failureReason]),
      limitReleased: (await row(order)).limit_released,
    };
  }

  it('paid at expiresAt while the expiry pass has not run, it ends as a PIX on an EXPIRED order does', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    // The path it must follow: expired by the pass, then paid.
    const byThePass = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    t.clock.set(byThePass.expiresAt);
    await t.drive(1);
    expect((await row(byThePass)).status).toBe('EXPIRED');
    expect((await pay(merchant, byThePass)).json().status).toBe('REFUNDING');

    // Paid at its expiresAt, before any expiry pass: the PSP's horario is expiresAt.
    const unpassed = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    t.clock.set(unpassed.expiresAt);
    const paid = await pay(merchant, unpassed);
    expect(paid.json()).toMatchObject({ status: 'REFUNDING', failureReason: 'PIX received after the order expired' });
    const expected = await outcome(merchant, byThePass);
    expect(expected).toMatchObject({ status: 'REFUNDING', limitReleased: true, events: [['order.refunding', 'REFUNDING', 'PIX received after the order expired']] });
    expect(await outcome(merchant, unpassed)).toEqual(expected);

    await t.drive();
    expect(await outcome(merchant, unpassed)).toEqual(await outcome(merchant, byThePass));
    expect((await outcome(merchant, unpassed)).status).toBe('REFUNDED');
    // Its limit came back once: the receiver's day holds nothing of either order.
    expect((await t.call('GET', `/receivers/${receiver.id}/limits`, merchant)).json()).toMatchObject({ ordersToday: 0, usedTodayBrl: 0 });
  });

  it('paid before expiresAt, notified after it (the expiry pass not run yet), it is credited and completes', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    t.clock.set(new Date(Date.parse(order.expiresAt) - 1_000).toISOString());
    const notification = await payQuietly(order);
    t.clock.advance(60_000);
    expect((await services().orderNotifications.handlePixNotification(notification))?.status).toBe('PAYMENT_RECEIVED');
    await t.drive();
    expect((await outcome(merchant, order)).status).toBe('COMPLETED');
  });

  it('a horario in our future (a PSP clock ahead of ours) counts as now: paid in time while our clock says so', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    t.clock.set(new Date(Date.parse(order.expiresAt) - 1_000).toISOString());
    const notification = await payQuietly(order);
    const ahead = { ...notification, paidAt: new Date(Date.parse(order.expiresAt) + 5_000) };
    expect((await services().orderNotifications.handlePixNotification(ahead))?.status).toBe('PAYMENT_RECEIVED');
  });

  it('a PIX without a readable horario is judged at its receipt: after expiresAt it goes back', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    const notification = await payQuietly(order);
    t.clock.set(order.expiresAt);
    const unreadable = { ...notification, paidAt: new Date(Number.NaN) };
    expect((await services().orderNotifications.handlePixNotification(unreadable))?.status).toBe('REFUNDING');
  });
});

describe('arrivalTime and arrivedAfterExpiry', () => {
  const now = new Date('2026-11-23T15:15:00.000Z');
  const order = { expires_at: now };
  it.each([
    ['the rail’s own time when it is in our past', new Date('2026-11-23T15:14:59.999Z'), new Date('2026-11-23T15:14:59.999Z')],
    ['our clock when the rail’s is in our future', new Date('2026-11-23T15:15:00.001Z'), now],
    ['our clock when the rail said nothing', null, now],
    ['our clock when the rail’s time is unreadable', new Date(Number.NaN), now],
  ])('takes %s', (_case, reported, expected) => {
    expect(arrivalTime(reported, now)).toEqual(expected);
  });

  it('is late at expiresAt exactly, as the expiry pass judges, and in time a millisecond before', () => {
    expect(arrivedAfterExpiry(order, now)).toBe(true);
    expect(arrivedAfterExpiry(order, new Date(now.getTime() - 1))).toBe(false);
  });
});
