/**
 * The two rate limits: per client IP on POST /auth/token, per credential on merchant routes;
 * over the limit is 429 RATE_LIMITED with retry-after. Each test builds its own app with a low
 * limit, so the counters are its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { createMerchantPair } from '../../helpers/factories.ts';
import { authFixture, expectUnauthorized } from './helpers.ts';

let ctx: TestContext;
let merchantA: TestMerchant;
let merchantB: TestMerchant;
const { getMerchant, requestToken, expectedBody } = authFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  [merchantA, merchantB] = await createMerchantPair(ctx);
});

afterAll(async () => {
  await ctx?.close();
});

describe('rate limiting', () => {
  it('POST /auth/token: the third request per minute from one IP is 429 RATE_LIMITED with retry-after', async () => {
    const app = await ctx.buildApp({ TOKEN_RATE_LIMIT_PER_MINUTE: '2' });
    const payload = { apiKey: merchantA.apiKey, apiSecret: merchantA.apiSecret };
    expect((await requestToken(payload, app)).statusCode).toBe(200);
    expect((await requestToken(payload, app)).statusCode).toBe(200);

    const limited = await requestToken(payload, app);
    const body = expectErrorBody(limited, 429, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body.details).toEqual({ retryAfterSeconds: retryAfter });

    // Counted per client IP: the same credential from another address still gets a token,
    // and any other merchant from the limited address is refused too.
    expect((await requestToken(payload, app, '10.1.2.3')).statusCode).toBe(200);
    expectErrorBody(await requestToken({ apiKey: merchantB.apiKey, apiSecret: merchantB.apiSecret }, app), 429, 'RATE_LIMITED');
    // The default app (60/minute) is not affected by the other app's counters.
    expect((await requestToken(payload)).statusCode).toBe(200);
  });

  it('merchant routes: the third request per minute with one credential is 429; other credentials are unaffected', async () => {
    const app = await ctx.buildApp({ RATE_LIMIT_PER_MINUTE: '2' });
    const merchant = await ctx.createMerchant('Rate limited');
    expect((await getMerchant(merchant.headers, app)).statusCode).toBe(200);
    expect((await getMerchant(merchant.headers, app)).statusCode).toBe(200);

    const limited = await getMerchant(merchant.headers, app);
    expectErrorBody(limited, 429, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // The limit belongs to the credential, whichever way it is presented.
    expectErrorBody(await getMerchant(await ctx.bearerFor(merchant), app), 429, 'RATE_LIMITED');

    // Another merchant, and another credential of the same merchant, have their own budgets.
    const other = await getMerchant(merchantB.headers, app);
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual(await expectedBody(merchantB));
    const second = await ctx.app.services.merchants.issueCredential(merchant.merchantId, { actor: 'test' });
    const secondResponse = await getMerchant({ 'x-api-key': second.apiKey, 'x-api-secret': second.apiSecret }, app);
    expect(secondResponse.statusCode).toBe(200);
    expect(secondResponse.json()).toEqual(await expectedBody(merchant));

    // Unauthenticated calls are refused before the limiter: still 401, not 429.
    expectUnauthorized(await getMerchant({ 'x-api-key': merchant.apiKey }, app));
  });
});
