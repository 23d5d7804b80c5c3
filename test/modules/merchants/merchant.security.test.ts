/**
 * GET /merchant across merchants: each merchant sees itself and only itself, whichever way it
 * authenticates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { createMerchantPair } from '../../helpers/factories.ts';
import { authFixture } from '../auth/helpers.ts';

let ctx: TestContext;
let merchantA: TestMerchant;
let merchantB: TestMerchant;
const { getMerchant, expectedBody } = authFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  [merchantA, merchantB] = await createMerchantPair(ctx);
});

afterAll(async () => {
  await ctx?.close();
});

describe('GET /merchant with valid credentials', () => {
  it('tenancy: each merchant sees itself, by key+secret and by token', async () => {
    const [a, b] = [await expectedBody(merchantA), await expectedBody(merchantB)];
    expect(a.id).not.toBe(b.id);
    for (const [merchant, expected] of [
      [merchantA, a],
      [merchantB, b],
    ] as const) {
      const byKey = await getMerchant(merchant.headers);
      expect(byKey.statusCode).toBe(200);
      expect(byKey.json()).toEqual(expected);
      const byToken = await getMerchant(await ctx.bearerFor(merchant));
      expect(byToken.statusCode).toBe(200);
      expect(byToken.json()).toEqual(expected);
    }
  });
});
