/**
 * Reconciliation (issue 14): an outcome the provider has but whose notification was dropped is
 * found by the worker's reconciliation pass and applied through the notifications' entry point,
 * once. The sandbox PSP's drivers are called directly, without handing their notifications on.
 */
import { describe, expect, it } from 'vitest';
import { type Json, ordersTest } from './helpers.ts';

describe('reconciliation with the PIX provider', () => {
  const t = ordersTest();
  const services = () => t.ctx.app.services;
  const status = async (merchant: Parameters<typeof t.call>[2], order: Json) => (await t.call('GET', `/orders/${order.id}`, merchant)).json().status;
  const row = (order: Json) => t.ctx.database.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
  const steps = async (passes = 3) => {
    for (let i = 0; i < passes; i++) await services().orderSteps.runDuePass();
  };

  it('a paid charge whose notification was dropped reaches COMPLETED through reconciliation, applied once', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 25 });
    // The customer pays; the PSP's notification never reaches us.
    await services().adapters.sandbox.pix.simulateChargePayment((await row(order)).pix_txid!);
    await steps();
    expect(await status(merchant, order)).toBe('AWAITING_PAYMENT');

    expect((await services().reconciliation.runPass()).chargesApplied).toBe(1);
    expect(await status(merchant, order)).toBe('PAYMENT_RECEIVED');
    await steps();
    expect(await status(merchant, order)).toBe('COMPLETED');
    // The late notification and a second pass change nothing.
    expect((await services().reconciliation.runPass()).chargesApplied).toBe(0);
    await services().orderNotifications.handlePixNotification(await services().adapters.sandbox.pix.simulateChargePayment((await row(order)).pix_txid!));
    expect((await t.events(order.id)).map((e) => e.event_type)).toEqual(['order.payment_received', 'order.completed']);
  });

  it('a settled refund and a refused refund whose notifications were dropped reach REFUNDED and FAILED after the grace period', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const refunded = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 12 });
    const refused = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 13 });
    // A PIX of another amount goes back.
    for (const order of [refunded, refused]) await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, { amountBrl: 5 });
    await steps(4);
    expect([await status(merchant, refunded), await status(merchant, refused)]).toEqual(['REFUNDING', 'REFUNDING']);
    const pix = services().adapters.sandbox.pix;
    await pix.failRefund((await row(refused)).refund_id!, 'conta encerrada');
    await pix.settleRefunds(); // DEVOLVIDO at the PSP, reported to nobody

    // Within the grace period the notification may still come: nothing is asked.
    expect((await services().reconciliation.runPass()).refundsApplied).toBe(0);
    t.clock.advance(121_000);
    expect((await services().reconciliation.runPass()).refundsApplied).toBe(2);
    expect(await status(merchant, refunded)).toBe('REFUNDED');
    expect(await status(merchant, refused)).toBe('FAILED');
    expect((await row(refused)).failure_reason).toContain('conta encerrada');
  });

  it('a sent PIX confirmed by the receiving bank with its notification dropped reaches COMPLETED', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC' });
    await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {});
    await steps(2);
    expect(await status(merchant, order)).toBe('PIX_SENT_UNCONFIRMED');
    await services().adapters.sandbox.pix.settlePayouts();
    t.clock.advance(121_000);
    expect((await services().reconciliation.runPass()).payoutsApplied).toBe(1);
    expect(await status(merchant, order)).toBe('COMPLETED');
    expect((await services().reconciliation.runPass()).payoutsApplied).toBe(0);
  });
});
