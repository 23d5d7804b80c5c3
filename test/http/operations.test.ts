import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { ADMIN_TOKEN, type TestContext, createTestContext } from '../helpers/app.ts';

describe('operations: health, readiness, metrics, logs', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('answers liveness and readiness without credentials', async () => {
    expect((await ctx.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const readiness = (await ctx.app.inject({ url: '/readyz' })).json();
    expect(readiness).toMatchObject({ status: 'ready', simulation: false, ordersRefused: [] });
    // Sandboxes and mail to the log live in this process: nothing to reach, always ok.
    const inProcess = { state: 'ok', lastSuccessAt: null, lastFailureAt: null };
    expect(readiness.dependencies).toEqual({
      database: { provider: 'postgresql', state: 'ok', lastSuccessAt: expect.any(String), lastFailureAt: null },
      psp: { provider: 'sandbox', ...inProcess },
      chain: { provider: 'sandbox', ...inProcess },
      prices: { provider: 'sandbox', ...inProcess },
      mail: { provider: 'log', ...inProcess },
    });
  });

  it('readiness shows a deployment that declares everything simulated (SIMULATION_MODE)', async () => {
    const simulated = await ctx.buildApp({ SIMULATION_MODE: 'true' });
    expect((await simulated.inject({ url: '/readyz' })).json()).toMatchObject({ status: 'ready', simulation: true });
  });

  it('exposes Prometheus metrics by route template and status', async () => {
    await ctx.app.inject({ url: '/api/v1/merchant' });
    const response = await ctx.app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/merchant",status_code="401"\} 1/);
    expect(response.body).toContain('http_request_duration_seconds_bucket');
    expect(response.body).toContain('process_resident_memory_bytes');
  });

  it('never writes secrets to the logs', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await ctx.buildApp({}, createLogger('trace', sink));
    const merchant = await ctx.createMerchant();
    const token = await ctx.bearerFor(merchant);
    await app.inject({ url: '/api/v1/merchant', headers: merchant.headers });
    await app.inject({ url: '/api/v1/merchant', headers: token });
    await app.inject({ method: 'POST', url: '/api/v1/auth/token', payload: { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret } });
    await app.inject({ method: 'POST', url: '/api/v1/admin/merchants', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name: 'Logged' } });
    const log = lines.join('');
    expect(log).toContain('request completed');
    for (const secret of [merchant.apiSecret, token.authorization!.slice(7), ADMIN_TOKEN]) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/sk_[A-Za-z0-9_-]{43}/);
  });

  it('logs one line per request, at completion, with its route, status, duration and merchant', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const app = await ctx.buildApp({}, createLogger('info', sink));
    const merchant = await ctx.createMerchant();
    const response = await app.inject({ url: '/api/v1/merchant?x=1', headers: { ...merchant.headers, 'x-request-id': 'log-line-1' } });
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.requestId === 'log-line-1');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      msg: 'request completed',
      method: 'GET',
      route: '/api/v1/merchant',
      statusCode: response.statusCode,
      merchantId: merchant.merchantId,
    });
    expect(entries[0]!.durationMs).toEqual(expect.any(Number));
  });
});
