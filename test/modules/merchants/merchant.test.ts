/**
 * GET /merchant, the merchant's own record, authenticated by key and secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { createMerchant } from '../../helpers/factories.ts';
import { ISO_TIMESTAMP, authFixture } from '../auth/helpers.ts';

let ctx: TestContext;
let merchantA: TestMerchant;
const { getMerchant, expectedBody } = authFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  merchantA = await createMerchant(ctx, 'Merchant A');
});

afterAll(async () => {
  await ctx?.close();
});

describe('GET /merchant with valid credentials', () => {
  it('authenticates with x-api-key and x-api-secret', async () => {
    const response = await getMerchant(merchantA.headers);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ id: merchantA.merchantId, name: 'Merchant A', status: 'ACTIVE', createdAt: expect.stringMatching(ISO_TIMESTAMP), sandbox: ctx.config.sandboxEnabled });
    expect(body).toEqual(await expectedBody(merchantA));
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });
});
