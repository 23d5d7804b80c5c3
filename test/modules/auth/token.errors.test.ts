/**
 * POST /auth/token, validation errors: a missing field, an unknown property or a non-string
 * secret is 400 VALIDATION_ERROR naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { createMerchantPair } from '../../helpers/factories.ts';
import { authFixture } from './helpers.ts';

let ctx: TestContext;
let merchantA: TestMerchant;
let merchantB: TestMerchant;
const { requestToken } = authFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  [merchantA, merchantB] = await createMerchantPair(ctx);
});

afterAll(async () => {
  await ctx?.close();
});

describe('POST /auth/token', () => {
  it('answers 400 VALIDATION_ERROR naming a missing field', async () => {
    const body = expectErrorBody(await requestToken({ apiKey: merchantA.apiKey }), 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual({ 'body.apiSecret': 'is required' });

    const both = expectErrorBody(await requestToken({}), 400, 'VALIDATION_ERROR');
    expect(both.details).toEqual({ 'body.apiKey': 'is required', 'body.apiSecret': 'is required' });
  });

  it('answers 400 for an unknown property and for a non-string secret', async () => {
    const extra = expectErrorBody(
      await requestToken({ apiKey: merchantA.apiKey, apiSecret: merchantA.apiSecret, merchantId: merchantB.merchantId }),
      400,
      'VALIDATION_ERROR',
    );
    expect(extra.details).toEqual({ 'body.merchantId': 'is not an allowed property' });

    const wrongType = expectErrorBody(await requestToken({ apiKey: merchantA.apiKey, apiSecret: 12345 }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(wrongType.details ?? {})).toEqual(['body.apiSecret']);
  });
});
