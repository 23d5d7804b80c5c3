/**
 * POST /payout end to end on the sandbox chain and PSP: the whole lifecycle with its four events,
 * re-pricing of a deposit of another amount, the default PIX key, a refused PIX, and body
 * validation. The worker is driven by hand (`drive`) with a test clock.
 */
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { COMMON, type Json, keysOf, ordersTest } from './helpers.ts';

describe('PAYOUT', () => {
  const t = ordersTest();

  it('goes from a deposit address to COMPLETED with the four events in order', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    // The sandbox PSP's key lookup must show the e-mail key held by the receiver (its destination policy).
    await t.call('POST', '/sandbox/pix-keys', merchant, { key: 'joana@example.com', keyType: 'EMAIL', document: receiver.document });
    const created = await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC', pixKey: 'Joana@Example.com', pixKeyType: 'EMAIL' });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json();
    expect(order).toMatchObject({
      type: 'PAYOUT',
      status: 'AWAITING_DEPOSIT',
      sourceToken: 'USDC',
      targetToken: null,
      amountCrypto: 100,
      amountBrl: 540,
      platformFeeAmountBrl: 2.7,
      netAmountBrl: 537.3,
      pixKey: 'joana@example.com',
      recipientName: 'Joana Souza',
      pixPaymentCode: null,
    });
    expect(order.depositAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

    expect((await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {})).json().status).toBe('DEPOSIT_RECEIVED');
    await t.drive();
    const done = (await t.call('GET', `/orders/${order.id}`, merchant)).json();
    expect(done.status).toBe('COMPLETED');
    expect(done.transactions.map((tx: Json) => [tx.type, tx.status])).toEqual([
      ['CHAIN_DEPOSIT', 'CONFIRMED'],
      ['PIX_OUT', 'CONFIRMED'],
    ]);
    const emitted = await t.events(order.id);
    expect(emitted.map((e) => e.event_type)).toEqual(['order.deposit_received', 'order.processing', 'order.pix_sending', 'order.completed']);
    expect(emitted.map((e) => e.payload.status)).toEqual(['DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENDING', 'COMPLETED']);
    expect(keysOf(emitted[0]!.payload)).toEqual([...COMMON, 'amountCrypto', 'txHash'].sort());
    expect(keysOf(emitted[1]!.payload)).toEqual([...COMMON, 'amountBrl', 'pixKey'].sort());
    expect(keysOf(emitted[2]!.payload)).toEqual([...COMMON, 'amountBrl', 'pixKey', 'pspTransactionId'].sort());
    expect(emitted[2]!.payload.pspTransactionId).toMatch(/^SBX[a-zA-Z0-9]{29}$/);
    expect(keysOf(emitted[3]!.payload)).toEqual([...COMMON, 'amountBrl', 'markupAmountBrl', 'pixEndToEndId', 'pixKey'].sort());
  });

  it('re-prices a deposit of another amount at the locked rate, and fails one below the minimum', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC' });
    const received = (await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, { amountCrypto: 50 })).json();
    expect(received).toMatchObject({ status: 'DEPOSIT_RECEIVED', amountCrypto: 50, amountBrl: 270, platformFeeAmountBrl: 1.35, netAmountBrl: 268.65, exchangeRate: 5.4 });
    const small = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC' });
    const failed = (await t.call('POST', `/sandbox/orders/${small.id}/deposit`, merchant, { amountCrypto: 0.1 })).json();
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toContain('less than the minimum');
    expect((await t.events(small.id)).map((e) => e.event_type)).toEqual(['order.failed']);
  });

  it('pays the receiver’s document as the default PIX key, and fails when the bank refuses the PIX', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 5.5, sourceToken: 'USDC' });
    expect(order.pixKey).toBe(receiver.document);
    await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {});
    await t.ctx.app.services.orderSteps.runDuePass();
    await t.ctx.app.services.orderSteps.runDuePass();
    const failed = await t.call('POST', `/sandbox/orders/${order.id}/fail`, merchant, { step: 'PIX_PAYOUT', reason: 'key not found' });
    expect(failed.json()).toMatchObject({ status: 'FAILED', failureReason: 'PIX payout refused: key not found' });
    expect((await t.events(order.id)).map((e) => e.event_type).at(-1)).toBe('order.failed');
  });

  it.each([
    ['7 decimals of USDC', { amountCrypto: 1.0000001 }, 'body.amountCrypto'],
    ['a bad phone key', { pixKey: '11999998888', pixKeyType: 'PHONE' }, 'body.pixKey'],
    ['a key without its type', { pixKey: 'a@b.com' }, 'body.pixKeyType'],
  ])('refuses a payout with %s (400)', async (_case, override, field) => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const response = await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC', ...override });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
  });
});
