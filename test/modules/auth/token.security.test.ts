/**
 * POST /auth/token refuses every wrong pair with the same 401 and message, including one
 * merchant's key with another's secret.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestContext, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { createMerchantPair } from '../../helpers/factories.ts';
import { BAD_KEY_OR_SECRET, authFixture, expectUnauthorized } from './helpers.ts';

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
  it('answers 401 for a wrong secret, an unknown key, a malformed key and a cross-merchant pair', async () => {
    const wrongSecret = `sk_${randomBytes(32).toString('base64url')}`;
    for (const payload of [
      { apiKey: merchantA.apiKey, apiSecret: wrongSecret },
      { apiKey: `mk_${randomBytes(16).toString('hex')}`, apiSecret: merchantA.apiSecret },
      { apiKey: 'mk_nope', apiSecret: merchantA.apiSecret },
      { apiKey: merchantA.apiKey, apiSecret: merchantB.apiSecret },
    ]) {
      expectUnauthorized(await requestToken(payload), BAD_KEY_OR_SECRET);
    }
  });
});
