/**
 * Issue 24, finding 7: failed authentication is limited per client IP. After N failures in a
 * minute, every further attempt from that address is 429 RATE_LIMITED with Retry-After before any
 * credential is looked up, on merchant routes, admin routes and POST /auth/token; other addresses
 * are unaffected.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuthFailureLimiter } from '../../src/http/auth-failures.ts';
import { AppError } from '../../src/errors.ts';
import { ADMIN_TOKEN, type TestContext, createTestContext, expectErrorBody } from '../helpers/app.ts';

const N = 5;
const BAD_KEY = { 'x-api-key': 'mk_not_a_key', 'x-api-secret': 'sk_not_a_secret' };

describe('the failed-authentication limiter per client IP', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ AUTH_FAILURE_LIMIT_PER_MINUTE: String(N), TOKEN_RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(() => ctx.close());

  const expectLimited = (response: Parameters<typeof expectErrorBody>[0]) => {
    expectErrorBody(response, 429, 'RATE_LIMITED');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
  };

  it('merchant routes: N bad keys are 401, the next is 429 without a lookup; a good key from another IP still works', async () => {
    const merchant = await ctx.createMerchant();
    const lookups = vi.spyOn(ctx.app.services.merchants, 'checkKeyAndSecret');
    const from = (remoteAddress: string, headers: Record<string, string>) => ctx.app.inject({ url: '/api/v1/merchant', remoteAddress, headers });
    for (let i = 0; i < N; i++) expectErrorBody(await from('198.51.100.10', BAD_KEY), 401, 'UNAUTHORIZED');
    expect(lookups).toHaveBeenCalledTimes(N);
    expectLimited(await from('198.51.100.10', BAD_KEY));
    // Over the limit, even a good credential from that address waits: nothing is looked up.
    expectLimited(await from('198.51.100.10', merchant.headers));
    expectLimited(await from('198.51.100.10', { authorization: 'Bearer not-a-token' }));
    expect(lookups).toHaveBeenCalledTimes(N);
    expect((await from('198.51.100.11', merchant.headers)).statusCode).toBe(200);
    lookups.mockRestore();
  });

  it('bearer tokens count too', async () => {
    for (let i = 0; i < N; i++) expectErrorBody(await ctx.app.inject({ url: '/api/v1/merchant', remoteAddress: '198.51.100.20', headers: { authorization: 'Bearer forged.token.x' } }), 401, 'UNAUTHORIZED');
    expectLimited(await ctx.app.inject({ url: '/api/v1/merchant', remoteAddress: '198.51.100.20', headers: { authorization: 'Bearer forged.token.x' } }));
  });

  it('admin routes: N bad admin tokens, then 429; the operator from another IP still works', async () => {
    const admin = (remoteAddress: string, token: string) => ctx.app.inject({ url: '/api/v1/admin/merchants', remoteAddress, headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < N; i++) expectErrorBody(await admin('198.51.100.30', `guess-${i}`), 401, 'UNAUTHORIZED');
    expectLimited(await admin('198.51.100.30', ADMIN_TOKEN));
    expect((await admin('198.51.100.31', ADMIN_TOKEN)).statusCode).toBe(200);
  });

  it('POST /auth/token: N bad secrets, then 429 before the body is checked; another IP gets its token', async () => {
    const merchant = await ctx.createMerchant();
    const token = (remoteAddress: string, apiSecret: string) => ctx.app.inject({ method: 'POST', url: '/api/v1/auth/token', remoteAddress, payload: { apiKey: merchant.apiKey, apiSecret } });
    for (let i = 0; i < N; i++) expectErrorBody(await token('198.51.100.40', `sk_wrong_${i}`), 401, 'UNAUTHORIZED');
    expectLimited(await token('198.51.100.40', merchant.apiSecret));
    expect((await token('198.51.100.41', merchant.apiSecret)).statusCode).toBe(200);
  });

  it('the failures of one address add up across merchant, admin and token routes', async () => {
    const ip = '198.51.100.50';
    expectErrorBody(await ctx.app.inject({ url: '/api/v1/merchant', remoteAddress: ip, headers: BAD_KEY }), 401, 'UNAUTHORIZED');
    expectErrorBody(await ctx.app.inject({ url: '/api/v1/admin/merchants', remoteAddress: ip, headers: { authorization: 'Bearer nope' } }), 401, 'UNAUTHORIZED');
    for (let i = 0; i < N - 2; i++) expectErrorBody(await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/token', remoteAddress: ip, payload: { apiKey: 'mk_x', apiSecret: 'sk_x' } }), 401, 'UNAUTHORIZED');
    expectLimited(await ctx.app.inject({ url: '/api/v1/merchant', remoteAddress: ip, headers: BAD_KEY }));
  });

  it('0 disables it', async () => {
    const app = await ctx.buildApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '0' });
    for (let i = 0; i < 40; i++) expect((await app.inject({ url: '/api/v1/merchant', remoteAddress: '198.51.100.60', headers: BAD_KEY })).statusCode).toBe(401);
  });
});

describe('createAuthFailureLimiter', () => {
  const unauthorized = () => Promise.reject(new AppError('UNAUTHORIZED', 'no'));
  const reply = () => ({ header: vi.fn() });
  const blocked = (limiter: ReturnType<typeof createAuthFailureLimiter>, ip: string) => {
    try {
      limiter.refuseWhileBlocked(ip, reply() as never);
      return false;
    } catch (err) {
      return err instanceof AppError && err.code === 'RATE_LIMITED';
    }
  };

  it('forgets an address when its minute ends, counts only UNAUTHORIZED, and holds a bounded number of addresses', async () => {
    let now = 0;
    const limiter = createAuthFailureLimiter({ maxPerMinute: 2, now: () => now, maxTracked: 2 });
    await limiter.counting('a', () => Promise.reject(new AppError('FORBIDDEN', 'disabled'))).catch(() => undefined);
    await limiter.counting('a', () => 'ok');
    expect(blocked(limiter, 'a')).toBe(false);
    for (let i = 0; i < 2; i++) await limiter.counting('a', unauthorized).catch(() => undefined);
    expect(blocked(limiter, 'a')).toBe(true);
    const answer = reply();
    now = 59_000;
    expect(() => limiter.refuseWhileBlocked('a', answer as never)).toThrow(/retry in 1 seconds/);
    expect(answer.header).toHaveBeenCalledWith('retry-after', '1');
    now = 60_000;
    expect(blocked(limiter, 'a')).toBe(false);
    // A third address pushes out the oldest window.
    for (const ip of ['b', 'b', 'c', 'c', 'd']) await limiter.counting(ip, unauthorized).catch(() => undefined);
    expect([blocked(limiter, 'b'), blocked(limiter, 'c')]).toEqual([false, true]);
  });
});
