/**
 * Receiver limits, errors: an unknown receiver is 404 with the Error object; bad limits are 400
 * naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { UNKNOWN_ID, receiversFixture } from './helpers.ts';

let ctx: TestContext;
let merchant: TestMerchant;
const { call, createReceiver } = receiversFixture(() => ctx, () => merchant);

beforeAll(async () => {
  ctx = await createTestContext();
  merchant = await ctx.createMerchant('Merchant A');
});
afterAll(() => ctx?.close());

describe('limits', () => {
  it('unknown receiver: 404 with the Error object', async () => {
    expect(expectErrorBody(await call('GET', `/receivers/${UNKNOWN_ID}/limits`), 404, 'NOT_FOUND').message).toBe('Receiver not found');
  });

  it.each([
    ['a negative count', { dailyTransactionLimit: -1 }, 'body.dailyTransactionLimit'],
    ['a fractional count', { dailyTransactionLimit: 2.5 }, 'body.dailyTransactionLimit'],
    ['a negative amount', { dailyLimitBrl: -10 }, 'body.dailyLimitBrl'],
    ['an amount with 3 decimals', { dailyLimitBrl: 1.001 }, 'body.dailyLimitBrl'],
    ['a string amount that is not plain decimal text', { dailyLimitBrl: '1e2' }, 'body.dailyLimitBrl'],
    ['a missing field', { nightTransactionsEnabled: undefined }, 'body.nightTransactionsEnabled'],
  ])('PUT refuses %s', async (_case, override, field) => {
    const receiver = await createReceiver();
    const body = { dailyLimitBrl: 100, dailyTransactionLimit: 2, nightTransactionsEnabled: false, ...override };
    expect(expectErrorBody(await call('PUT', `/receivers/${receiver.id}/limits`, body), 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
  });
});
