/**
 * Receiver limits across merchants: another merchant's receiver is 404 to read or replace, and
 * its limits stay as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { receiversFixture } from './helpers.ts';

let ctx: TestContext;
let merchant: TestMerchant;
let other: TestMerchant;
const { call, createReceiver } = receiversFixture(() => ctx, () => merchant);

beforeAll(async () => {
  ctx = await createTestContext();
  merchant = await ctx.createMerchant('Merchant A');
  other = await ctx.createMerchant('Merchant B');
});
afterAll(() => ctx?.close());

describe('limits', () => {
  it('foreign receiver: 404 on GET and PUT, limits unchanged', async () => {
    const receiver = await createReceiver();
    expectErrorBody(await call('GET', `/receivers/${receiver.id}/limits`, undefined, other), 404, 'NOT_FOUND');
    expectErrorBody(
      await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: 1, dailyTransactionLimit: 1, nightTransactionsEnabled: true }, other),
      404,
      'NOT_FOUND',
    );
    expect((await call('GET', `/receivers/${receiver.id}/limits`)).json()).toEqual({
      receiverId: receiver.id,
      dailyLimitBrl: null,
      dailyTransactionLimit: null,
      nightTransactionsEnabled: false,
      usageDay: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      ordersToday: 0,
      usedTodayBrl: 0,
    });
  });
});
