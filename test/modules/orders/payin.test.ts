/**
 * POST /payin end to end on the sandbox PSP and chain: the whole lifecycle with its events,
 * expiry, refunds, concurrent payment notifications, body validation and Idempotency-Key
 * replays. The worker is driven by hand (`drive`) with a test clock.
 */
import { parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { COMMON, type Json, NOON_SP, WALLET, keysOf, ordersTest } from './helpers.ts';

describe('PAYIN', () => {
  const t = ordersTest();

  it('goes from a valid BR Code to COMPLETED with txHash and its events in order', async () => {
    const merchant = await t.merchant('Loja A');
    const receiver = await t.activeReceiver(merchant);
    const created = await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 150.75, externalId: 'pedido-1' });
    expect(created.statusCode, created.body).toBe(201);
    const order = created.json();
    expect(order).toMatchObject({
      type: 'PAYIN',
      status: 'AWAITING_PAYMENT',
      amountBrl: 150.75,
      targetToken: 'USDC',
      sourceToken: null,
      destinationWallet: WALLET,
      exchangeRate: 5.4,
      platformFeePercentage: 0.005,
      merchantFeePercentage: 0,
      feePercentage: 0.005,
      platformFeeAmountBrl: 0.75,
      merchantFeeAmountBrl: 0,
      netAmountBrl: 150,
      amountToken: 27.777777,
      amountUsdc: 27.777777,
      receiverName: 'Joana Souza',
      merchantName: 'Loja A',
      externalId: 'pedido-1',
      transactions: [],
    });
    // A dynamic code (as PSPs answer API Pix cob): its location serves the full txid, which is the
    // order's paymentReference, and exactly the amount.
    const parsed = parsePix(order.pixPaymentCode) as unknown as Json;
    expect(parsed.type).toBe('DYNAMIC');
    const served = await t.ctx.app.services.adapters.sandbox.pix.payloadAt(parsed.url);
    expect(served?.payload).toMatchObject({ txid: order.paymentReference, valor: { original: '150.75' } });
    expect(order.paymentReference).toHaveLength(32);
    expect(Date.parse(order.expiresAt) - Date.parse(NOON_SP)).toBe(900_000);

    const paid = await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    expect(paid.json().status).toBe('PAYMENT_RECEIVED');
    await t.drive();
    const done = (await t.call('GET', `/orders/${order.id}`, merchant)).json();
    expect(done).toMatchObject({ status: 'COMPLETED', completedAt: NOON_SP });
    expect(done.transactions.map((tx: Json) => [tx.type, tx.status])).toEqual([
      ['PIX_IN', 'CONFIRMED'],
      ['CHAIN_TRANSFER', 'CONFIRMED'],
    ]);
    const txHash = done.transactions[1].txHash;
    expect(txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);

    const emitted = await t.events(order.id);
    expect(emitted.map((e) => e.event_type)).toEqual(['order.payment_received', 'order.completed']);
    expect(keysOf(emitted[0]!.payload)).toEqual([...COMMON, 'amountBrl', 'pixEndToEndId'].sort());
    expect(emitted[0]!.payload).toMatchObject({ status: 'PAYMENT_RECEIVED', amountBrl: 150.75, externalId: 'pedido-1', type: 'PAYIN' });
    expect(emitted[0]!.payload.pixEndToEndId).toMatch(/^E[0-9A-Z]{8}\d{12}[a-zA-Z0-9]{11}$/);
    expect(keysOf(emitted[1]!.payload)).toEqual([...COMMON, 'amountBrl', 'amountToken', 'destinationWallet', 'markupAmountBrl', 'targetToken', 'txHash'].sort());
    expect(emitted[1]!.payload).toMatchObject({ status: 'COMPLETED', markupAmountBrl: 0, amountToken: 27.777777, targetToken: 'USDC', destinationWallet: WALLET, txHash });
  });

  it('expires unpaid at expiresAt and gives the daily limit back', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, { dailyLimitBrl: null, dailyTransactionLimit: 1, nightTransactionsEnabled: false });
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 }), 422, 'LIMIT_EXCEEDED');
    t.clock.advance(899_000);
    await t.drive(1);
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('AWAITING_PAYMENT');
    t.clock.advance(1_000);
    await t.drive(1);
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('EXPIRED');
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 })).statusCode).toBe(201);
  });

  it('refunds automatically when the transfer fails after payment (REFUNDING → REFUNDED)', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 });
    await t.call('POST', `/sandbox/orders/${order.id}/fail`, merchant, { step: 'CHAIN_TRANSFER', reason: 'account frozen' });
    await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    await t.drive();
    const done = (await t.call('GET', `/orders/${order.id}`, merchant)).json();
    expect(done.status).toBe('REFUNDED');
    expect(done.failureReason).toContain('account frozen');
    const emitted = await t.events(order.id);
    expect(emitted.map((e) => e.event_type)).toEqual(['order.payment_received', 'order.refunding', 'order.refunded']);
    expect(keysOf(emitted[1]!.payload)).toEqual([...COMMON, 'failureReason'].sort());
    expect(emitted[2]!.payload).toMatchObject({ status: 'REFUNDED', amountBrl: 20 });
    expect(done.transactions.map((tx: Json) => tx.type)).toEqual(['PIX_IN', 'CHAIN_TRANSFER', 'PIX_REFUND']);
  });

  it('refunds a PIX of the wrong amount, and ends FAILED when the refund itself fails', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 30 });
    expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, { amountBrl: 29.99 })).json().status).toBe('REFUNDING');
    await t.ctx.app.services.orderSteps.runDuePass(); // requests the refund
    const failed = await t.call('POST', `/sandbox/orders/${order.id}/fail`, merchant, { step: 'PIX_REFUND', reason: 'account closed' });
    expect(failed.json()).toMatchObject({ status: 'FAILED' });
    expect((await t.events(order.id)).map((e) => e.event_type)).toEqual(['order.refunding', 'order.failed']);
    const refund = failed.json().transactions.find((tx: Json) => tx.type === 'PIX_REFUND');
    expect(refund).toMatchObject({ status: 'FAILED', amount: 29.99 });
  });

  it('50 concurrent payment notifications give one transition and one event', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 12.34 });
    const responses = await Promise.all(Array.from({ length: 50 }, () => t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})));
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    expect((await t.events(order.id)).map((e) => e.event_type)).toEqual(['order.payment_received']);
    const pixIn = (await t.call('GET', `/orders/${order.id}`, merchant)).json().transactions.filter((tx: Json) => tx.type === 'PIX_IN');
    expect(pixIn).toHaveLength(1);
  });

  it.each([
    ['3 decimals of BRL', { amountBrl: 10.001 }, 'body.amountBrl'],
    ['a negative amount', { amountBrl: -5 }, 'body.amountBrl'],
    ['a string amount that is not plain decimal text', { amountBrl: '10,00' }, 'body.amountBrl'],
    ['a string amount with 3 decimals', { amountBrl: '10.001' }, 'body.amountBrl'],
    ['below the minimum', { amountBrl: 0.5 }, 'body.amountBrl'],
    ['above the maximum', { amountBrl: 100000.01 }, 'body.amountBrl'],
    ['an unsupported token', { targetToken: 'DOGE' }, 'body.targetToken'],
    ['an unsupported chain', { chain: 'ethereum' }, 'body.chain'],
    ['a bad destination wallet', { destinationWallet: '0x52908400098527886E0F7030069857D2E4169EE7' }, 'body.destinationWallet'],
  ])('refuses a payin with %s (400)', async (_case, override, field) => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const response = await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10, ...override });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
  });

  it('an Idempotency-Key retry of POST /payin replays the order instead of creating another', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const headers = { 'idempotency-key': `payin-${receiver.id}` };
    const first = await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 42 }, headers);
    const second = await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 42 }, headers);
    expect(second.statusCode).toBe(201);
    expect(second.json().id).toBe(first.json().id);
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 43 }, headers), 409, 'IDEMPOTENCY_CONFLICT');
    expect((await t.call('GET', `/orders?receiverId=${receiver.id}`, merchant)).json().total).toBe(1);
  });
});
