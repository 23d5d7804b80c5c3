/**
 * Issue 24, finding 7: `Cache-Control: no-store` and `X-Content-Type-Options: nosniff` on every
 * answer (errors, 404s, framework errors, rate limits, the early server's 503); HSTS only on a
 * request that arrived over https; /docs off in production unless DOCS_ENABLED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { listenEarly } from '../../src/http/early-server.ts';
import { type TestContext, createTestContext } from '../helpers/app.ts';

type Answer = { statusCode: number; headers: Record<string, unknown> };

const expectGuarded = (response: Answer, what: string) => {
  expect(response.headers['cache-control'], what).toBe('no-store');
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
};

describe('headers on every answer', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ TOKEN_RATE_LIMIT_PER_MINUTE: '1' });
  });
  afterAll(() => ctx.close());

  it('no-store and nosniff on successes, errors, 404s, framework errors and rate limits', async () => {
    const merchant = await ctx.createMerchant();
    const token = await ctx.bearerFor(merchant); // the one /auth/token this minute allows
    const inject = ctx.app.inject.bind(ctx.app);
    const answers: [string, Answer, number][] = [
      ['liveness', await inject({ url: '/healthz' }), 200],
      ['an authenticated read', await inject({ url: '/api/v1/merchant', headers: token }), 200],
      ['the OpenAPI document', await inject({ url: '/api/v1/openapi.json' }), 200],
      ['no credentials', await inject({ url: '/api/v1/merchant' }), 401],
      ['an unknown route', await inject({ url: '/api/v1/nowhere' }), 404],
      ['a validation error', await inject({ method: 'POST', url: '/api/v1/receivers', headers: merchant.headers, payload: {} }), 400],
      ['a body that is not JSON', await inject({ method: 'POST', url: '/api/v1/receivers', headers: { ...merchant.headers, 'content-type': 'text/plain' }, payload: 'x' }), 415],
      ['a malformed URL (framework error)', await inject({ url: '/api/v1/receivers/%E0%A4%A' }), 400],
      ['a rate limit', await inject({ method: 'POST', url: '/api/v1/auth/token', payload: { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret } }), 429],
    ];
    for (const [what, response, status] of answers) {
      expect(response.statusCode, what).toBe(status);
      expectGuarded(response, what);
    }
    // The one answer meant to be cached: the public keys that verify tokens.
    expect((await inject({ url: '/api/v1/.well-known/jwks.json' })).headers['cache-control']).toBe('public, max-age=300');
  });

  it('the early server 503, before the app takes over, too', async () => {
    const early = await listenEarly('127.0.0.1', 0);
    const { port } = early.server.address() as { port: number };
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/merchant`);
      expect(response.status).toBe(503);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await early.close();
    }
  });

  it('HSTS only where the request arrived over https: a trusted proxy says so, a client cannot', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    expect((await ctx.app.inject({ url: '/healthz' })).headers['strict-transport-security']).toBeUndefined();
    // Untrusted: a client's own X-Forwarded-Proto is not believed.
    expect((await ctx.app.inject({ url: '/healthz', headers: https })).headers['strict-transport-security']).toBeUndefined();
    const proxied = await ctx.buildApp({ TRUST_PROXY: '10.0.0.0/8' });
    expect((await proxied.inject({ url: '/healthz', remoteAddress: '10.0.0.2', headers: https })).headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await proxied.inject({ url: '/api/v1/nowhere', remoteAddress: '10.0.0.2', headers: https })).headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await proxied.inject({ url: '/healthz', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-proto': 'http' } })).headers['strict-transport-security']).toBeUndefined();
    expect((await proxied.inject({ url: '/healthz', remoteAddress: '192.0.2.1', headers: https })).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('/docs', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('is on outside production, off in production unless DOCS_ENABLED; the OpenAPI document stays', async () => {
    expect(loadConfig({}).docsEnabled).toBe(true);
    expect((await ctx.app.inject({ url: '/docs/' })).statusCode).toBe(200);
    const off = await ctx.buildApp({ DOCS_ENABLED: 'false' });
    expect((await off.inject({ url: '/docs/' })).statusCode).toBe(404);
    expect((await off.inject({ url: '/docs' })).statusCode).toBe(404);
    expect((await off.inject({ url: '/api/v1/openapi.json' })).statusCode).toBe(200);
  });
});
