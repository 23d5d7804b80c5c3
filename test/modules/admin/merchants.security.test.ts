/**
 * The guard of the operator API (/api/v1/admin): the admin token only, in any case of the
 * bearer scheme; merchants' credentials are 403; the guard runs before validation; and with
 * ADMIN_TOKEN unset the routes do not exist.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { setMerchantStatus } from '../../helpers/factories.ts';
import { ADMIN, MERCHANT_URL, SOME_ID, adminFixture } from './helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

const { admin, createViaService, auditRows } = adminFixture(() => ctx);

describe('admin guard', () => {
  const routes: Array<['GET' | 'POST' | 'DELETE', string, unknown?]> = [
    ['GET', '/merchants'],
    ['POST', '/merchants', { name: 'Guarded' }],
    ['GET', `/merchants/${SOME_ID}`],
    ['POST', `/merchants/${SOME_ID}/disable`],
    ['GET', `/merchants/${SOME_ID}/credentials`],
    ['POST', `/merchants/${SOME_ID}/credentials`],
    ['DELETE', `/merchants/${SOME_ID}/credentials/${SOME_ID}`],
  ];

  it.each(routes)('%s %s: no token or a wrong token is 401 UNAUTHORIZED', async (method, url, payload) => {
    const before = (await auditRows()).length;
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-admin-token-0123456789abcdef0123456789' },
      { authorization: `Bearer ${ADMIN_TOKEN}x` },
      { authorization: `Bearer ${ADMIN_TOKEN.slice(0, -1)}` },
      { authorization: ADMIN_TOKEN },
      { authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` },
      { 'x-api-key': ADMIN_TOKEN, 'x-api-secret': ADMIN_TOKEN },
    ]) {
      const response = await ctx.app.inject({ method, url: `${ADMIN}${url}`, headers, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });
      expectErrorBody(response, 401, 'UNAUTHORIZED');
    }
    expect((await auditRows()).length).toBe(before);
  });

  it("a merchant's valid key+secret or bearer token is 403 FORBIDDEN", async () => {
    const merchant = await createViaService('Nosy merchant');
    const token = await ctx.bearerFor(merchant);
    for (const headers of [merchant.headers, token]) {
      expectErrorBody(await ctx.app.inject({ method: 'GET', url: `${ADMIN}/merchants`, headers }), 403, 'FORBIDDEN');
      expectErrorBody(await ctx.app.inject({ method: 'POST', url: `${ADMIN}/merchants`, headers, payload: { name: 'Self-made' } }), 403, 'FORBIDDEN');
      expectErrorBody(
        await ctx.app.inject({ method: 'POST', url: `${ADMIN}/merchants/${merchant.merchantId}/credentials`, headers }),
        403,
        'FORBIDDEN',
      );
    }
    const names = (await ctx.database.db.selectFrom('merchants').select('name').execute()).map((row) => row.name);
    expect(names).not.toContain('Self-made');
  });

  it("a disabled merchant's valid credentials are 403 too; a wrong secret stays 401", async () => {
    const merchant = await createViaService('Disabled nosy merchant');
    await setMerchantStatus(ctx, merchant, 'DISABLED');
    expectErrorBody(await ctx.app.inject({ method: 'GET', url: `${ADMIN}/merchants`, headers: merchant.headers }), 403, 'FORBIDDEN');
    const wrongSecret = { ...merchant.headers, 'x-api-secret': `sk_${'A'.repeat(43)}` };
    expectErrorBody(await ctx.app.inject({ method: 'GET', url: `${ADMIN}/merchants`, headers: wrongSecret }), 401, 'UNAUTHORIZED');
  });

  it('accepts the bearer scheme in any case, as RFC 7235 says', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${ADMIN}/merchants`, headers: { authorization: `bearer ${ADMIN_TOKEN}` } });
    expect(response.statusCode).toBe(200);
  });

  it('the guard runs before validation: an invalid body without a token is 401, not 400', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: `${ADMIN}/merchants`, payload: { nope: true } });
    expectErrorBody(response, 401, 'UNAUTHORIZED');
  });

  it('with ADMIN_TOKEN unset, no bearer token opens the back office (401), which operators still sign in to', async () => {
    const app = await ctx.buildApp({ ADMIN_TOKEN: '' });
    for (const [method, url] of [
      ['GET', '/merchants'],
      ['POST', '/merchants'],
      ['GET', `/merchants/${randomUUID()}`],
    ] as const) {
      const response = await admin(method, url, method === 'POST' ? { name: 'Ghost' } : undefined, app);
      expectErrorBody(response, 401, 'UNAUTHORIZED');
      const bare = await app.inject({ method, url: `${ADMIN}${url}` });
      expectErrorBody(bare, 401, 'UNAUTHORIZED');
    }
    // The merchant API of that app still works.
    const merchant = await createViaService('Still served');
    expect((await app.inject({ method: 'GET', url: MERCHANT_URL, headers: merchant.headers })).statusCode).toBe(200);
  });
});
