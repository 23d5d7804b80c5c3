/**
 * Receiver limits (GET and PUT /receivers/{id}/limits): the spec shape, replaced whole, nulls
 * allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext } from '../../helpers/app.ts';
import { receiversFixture } from './helpers.ts';

let ctx: TestContext;
let merchant: TestMerchant;
const { call, createReceiver } = receiversFixture(() => ctx, () => merchant);

beforeAll(async () => {
  ctx = await createTestContext();
  merchant = await ctx.createMerchant('Merchant A');
});
afterAll(() => ctx?.close());

describe('limits', () => {
  it('GET answers the spec shape; PUT replaces (nulls allowed)', async () => {
    const receiver = await createReceiver();
    expect((await call('GET', `/receivers/${receiver.id}/limits`)).json()).toEqual({
      receiverId: receiver.id,
      dailyLimitBrl: null,
      dailyTransactionLimit: null,
      nightTransactionsEnabled: false,
      usageDay: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      ordersToday: 0,
      usedTodayBrl: 0,
    });
    const replaced = await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: 2500.75, dailyTransactionLimit: 5, nightTransactionsEnabled: true });
    expect(replaced.json()).toMatchObject({ receiverId: receiver.id, dailyLimitBrl: 2500.75, dailyTransactionLimit: 5, nightTransactionsEnabled: true, ordersToday: 0 });
    const cleared = await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false });
    expect(cleared.json()).toMatchObject({ receiverId: receiver.id, dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false });
    expect((await call('GET', `/receivers/${receiver.id}`)).json().limits).toEqual({ dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false });
  });
});
