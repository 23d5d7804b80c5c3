/**
 * The business rules of order creation (DESIGN.md §5): daily limits counted atomically and
 * across both order types, the night rule, KYC and receiver status, externalId uniqueness, and
 * tenancy. That refusals leave nothing at the provider is refusals.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { UUID, ordersTest } from './helpers.ts';

describe('rules at creation', () => {
  const t = ordersTest();

  it('limits race: 20 concurrent payins against a daily count of 5 create exactly 5', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, { dailyLimitBrl: null, dailyTransactionLimit: 5, nightTransactionsEnabled: false });
    const responses = await Promise.all(Array.from({ length: 20 }, () => t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 })));
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(5);
    for (const refused of responses.filter((r) => r.statusCode !== 201)) expectErrorBody(refused, 422, 'LIMIT_EXCEEDED');
  });

  it('daily BRL limit counts payins and payouts together', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, { dailyLimitBrl: 600, dailyTransactionLimit: null, nightTransactionsEnabled: false });
    expect((await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC' })).statusCode).toBe(201); // 540 BRL
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 60.01 }), 422, 'LIMIT_EXCEEDED');
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 60 })).statusCode).toBe(201);
  });

  it('LIMIT_EXCEEDED names the limits as the API shows them (JSON numbers)', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    await t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, { dailyLimitBrl: 15.5, dailyTransactionLimit: 3, nightTransactionsEnabled: false });
    const refused = expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 15.51 }), 422, 'LIMIT_EXCEEDED');
    expect(refused.details).toEqual({ dailyLimitBrl: 15.5, dailyTransactionLimit: 3 });
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 15.5 })).statusCode).toBe(201);
  });

  it('night rule: 20:00–06:00 São Paulo needs nightTransactionsEnabled', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    t.clock.set('2026-11-24T01:30:00.000Z'); // 22:30 in São Paulo
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 }), 422, 'NIGHT_TRANSACTIONS_DISABLED');
    await t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, { dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: true });
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 })).statusCode).toBe(201);
    t.clock.set('2026-11-24T09:00:00.000Z'); // 06:00: day again
    await t.call('PUT', `/receivers/${receiver.id}/limits`, merchant, { dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false });
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 })).statusCode).toBe(201);
  });

  it('receiver must be ACTIVE with approved KYC', async () => {
    const merchant = await t.merchant();
    const pending = await t.pendingReceiver(merchant, { name: 'Sem KYC', email: 'k@example.com' });
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: pending.id, amountBrl: 10 }), 422, 'KYC_NOT_APPROVED');
    const receiver = await t.activeReceiver(merchant);
    await t.ctx.app.services.receivers.changeStatus(receiver.id, 'suspend', { actor: 'test' });
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10 }), 422, 'RECEIVER_NOT_ACTIVE');
  });

  it('externalId is unique per merchant: 409 with the existing order id', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver('Loja A');
    const first = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10, externalId: 'dup-1' });
    const again = expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 11, externalId: 'dup-1' }), 409, 'CONFLICT');
    expect(again.details).toEqual({ existingOrderId: first.id });
    const other = await t.merchantWithReceiver('Loja B');
    expect((await t.call('POST', '/payin', other.merchant, { receiverId: other.receiver.id, amountBrl: 10, externalId: 'dup-1' })).statusCode).toBe(201);
  });

  it('externalId raced by concurrent creations: one order, the others 409 with its id', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const responses = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 10, externalId: 'race-1' })));
    const created = responses.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    for (const refused of responses.filter((r) => r.statusCode !== 201)) {
      expect(expectErrorBody(refused, 409, 'CONFLICT').details).toEqual({ existingOrderId: created[0]!.json().id });
    }
    expect((await t.call('GET', '/orders?externalId=race-1', merchant)).json().total).toBe(1);
  });

  it('another merchant’s receiver or order is 404', async () => {
    const merchant = await t.merchant('Loja A');
    const other = await t.merchantWithReceiver('Loja B');
    const theirs = other.receiver;
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: theirs.id, amountBrl: 10 }), 404, 'NOT_FOUND');
    const theirOrder = await t.payin(other.merchant, { receiverId: theirs.id, amountBrl: 10 });
    expectErrorBody(await t.call('GET', `/orders/${theirOrder.id}`, merchant), 404, 'NOT_FOUND');
    expectErrorBody(await t.call('POST', `/sandbox/orders/${theirOrder.id}/pix-payment`, merchant, {}), 404, 'NOT_FOUND');
    expectErrorBody(await t.call('GET', `/orders/${UUID}`, merchant), 404, 'NOT_FOUND');
  });
});
