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
    expect(body).toEqual({ id: merchantA.merchantId, name: 'Merchant A', status: 'ACTIVE', createdAt: expect.stringMatching(ISO_TIMESTAMP) });
    expect(body).toEqual(await expectedBody(merchantA));
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });
});

describe('GET /merchant/environment', () => {
  it('says the sandbox is on, with the chains and tokens orders accept, as configured', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/merchant/environment', headers: merchantA.headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ sandbox: true, chains: ['solana'], tokens: ['USDC'] });
  });

  it('says false where the sandbox is off (its routes do not exist), and lists other tokens', async () => {
    const off = await ctx.buildApp({ SANDBOX_ENABLED: 'false', SUPPORTED_TOKENS: 'USDC:6,USDT:6', SANDBOX_TOKEN_BRL_RATES: 'USDT:5.41' });
    const response = await off.inject({ method: 'GET', url: '/api/v1/merchant/environment', headers: merchantA.headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ sandbox: false, chains: ['solana'], tokens: ['USDC', 'USDT'] });
    const kyc = await off.inject({ method: 'POST', url: `/api/v1/sandbox/receivers/${merchantA.merchantId}/kyc`, headers: merchantA.headers, payload: { decision: 'APPROVE' } });
    expect(kyc.statusCode).toBe(404);
    expect(kyc.json().error).toBe('NOT_FOUND');
  });

  it('needs authentication', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/merchant/environment' })).statusCode).toBe(401);
  });
});
