/**
 * Issue 15, HTTP edges as an integrator meets them: 415 for a body that is not JSON, an empty
 * body with a JSON content type accepted where the route reads none, the IETF RateLimit headers,
 * and /metrics behind METRICS_TOKEN (closed in production without one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { App } from '../../src/http/types.ts';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext, expectErrorBody, testConfig } from '../helpers/app.ts';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789';

let ctx: TestContext;
let merchant: TestMerchant;

beforeAll(async () => {
  ctx = await createTestContext();
  merchant = await ctx.createMerchant('HTTP Edges');
});
afterAll(() => ctx.close());

describe('request bodies', () => {
  it('a text/plain body is 415 UNSUPPORTED_MEDIA_TYPE, on a route with a body and on one without', async () => {
    const headers = { ...merchant.headers, 'content-type': 'text/plain' };
    const withBody = await ctx.app.inject({ method: 'POST', url: '/api/v1/quotes', headers, payload: '{"type":"PAYIN","amountBrl":100}' });
    expect(expectErrorBody(withBody, 415, 'UNSUPPORTED_MEDIA_TYPE').message).toMatch(/application\/json/);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain' };
    const bodiless = await ctx.app.inject({ method: 'POST', url: `/api/v1/admin/merchants/${merchant.merchantId}/enable`, headers: admin, payload: 'hello' });
    expectErrorBody(bodiless, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const form = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'apiKey=a&apiSecret=b' });
    expectErrorBody(form, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('JSON with a charset parameter is JSON', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ apiKey: merchant.apiKey, apiSecret: merchant.apiSecret }),
    });
    expect(response.statusCode).toBe(200);
  });

  it('an empty body with Content-Type: application/json is accepted where the route reads no body', async () => {
    const json = { 'content-type': 'application/json' };
    const admin = { ...json, authorization: `Bearer ${ADMIN_TOKEN}` };
    const target = await ctx.createMerchant('Disabled and enabled');
    const disable = await ctx.app.inject({ method: 'POST', url: `/api/v1/admin/merchants/${target.merchantId}/disable`, headers: admin, payload: '' });
    expect(disable.statusCode, disable.body).toBe(200);
    const enable = await ctx.app.inject({ method: 'POST', url: `/api/v1/admin/merchants/${target.merchantId}/enable`, headers: admin });
    expect(enable.statusCode, enable.body).toBe(200);
    const get = await ctx.app.inject({ method: 'GET', url: '/api/v1/merchant', headers: { ...json, ...merchant.headers } });
    expect(get.statusCode, get.body).toBe(200);
  });
});

describe('rate-limit headers (IETF RateLimit draft)', () => {
  it('every answer of a limited route carries RateLimit-Limit, -Remaining and -Reset (seconds, not an epoch); a 429 adds Retry-After', async () => {
    const app = await ctx.buildApp({ RATE_LIMIT_PER_MINUTE: '2' });
    const limitedMerchant = await ctx.createMerchant('Rate headers');
    const first = await app.inject({ url: '/api/v1/merchant', headers: limitedMerchant.headers });
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('2');
    expect(first.headers['ratelimit-remaining']).toBe('1');
    const reset = Number(first.headers['ratelimit-reset']);
    expect(Number.isInteger(reset) && reset > 0 && reset <= 60, `ratelimit-reset ${reset}`).toBe(true);
    expect(Object.keys(first.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);

    await app.inject({ url: '/api/v1/merchant', headers: limitedMerchant.headers });
    const limited = await app.inject({ url: '/api/v1/merchant', headers: limitedMerchant.headers });
    expectErrorBody(limited, 429, 'RATE_LIMITED');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
  });
});

describe('/metrics', () => {
  const scrape = (app: App, authorization?: string) => app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });

  it('is open outside production when METRICS_TOKEN is unset', async () => {
    const response = await scrape(ctx.app);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http_requests_total');
  });

  it('with METRICS_TOKEN set, requires it as a bearer token', async () => {
    const app = await ctx.buildApp({ METRICS_TOKEN });
    expectErrorBody(await scrape(app), 401, 'UNAUTHORIZED');
    expectErrorBody(await scrape(app, `Bearer ${METRICS_TOKEN}x`), 401, 'UNAUTHORIZED');
    expectErrorBody(await scrape(app, `Bearer ${ADMIN_TOKEN}`), 401, 'UNAUTHORIZED');
    const allowed = await scrape(app, `Bearer ${METRICS_TOKEN}`);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('is closed in production without METRICS_TOKEN, and open to the token with one', async () => {
    const production = async (metricsToken: string | undefined) => {
      const app = await buildApp({ config: { ...testConfig(), nodeEnv: 'production', metricsToken }, db: ctx.database.db });
      await app.ready();
      return app;
    };
    const closed = await production(undefined);
    try {
      expectErrorBody(await scrape(closed), 401, 'UNAUTHORIZED');
      expectErrorBody(await scrape(closed, `Bearer ${ADMIN_TOKEN}`), 401, 'UNAUTHORIZED');
    } finally {
      await closed.close();
    }
    const guarded = await production(METRICS_TOKEN);
    try {
      expect((await scrape(guarded, `Bearer ${METRICS_TOKEN}`)).statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
