/**
 * The back office's reads (GET /admin/orders, /admin/orders/stuck, /admin/orders/{id},
 * /admin/webhooks/health) are the operator's: no credentials or a wrong token is 401, a
 * merchant's key or bearer token is 403, and the guard answers before validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { ADMIN, SOME_ID } from './helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

const ROUTES = ['/orders?q=anything', '/orders/stuck', `/orders/${SOME_ID}`, '/webhooks/health', '/orders/not-a-uuid', '/orders?limit=1000'];

describe('operator reads guard', () => {
  it.each(ROUTES)('GET %s: no token or a wrong token is 401 UNAUTHORIZED', async (url) => {
    for (const headers of [{}, { authorization: `Bearer ${ADMIN_TOKEN}x` }, { authorization: ADMIN_TOKEN }]) {
      expectErrorBody(await ctx.app.inject({ method: 'GET', url: `${ADMIN}${url}`, headers }), 401, 'UNAUTHORIZED');
    }
  });

  it.each(ROUTES)("GET %s: a merchant's key+secret or bearer token is 403 FORBIDDEN", async (url) => {
    const merchant = await ctx.createMerchant('Nosy merchant');
    for (const headers of [merchant.headers, await ctx.bearerFor(merchant)]) {
      expectErrorBody(await ctx.app.inject({ method: 'GET', url: `${ADMIN}${url}`, headers }), 403, 'FORBIDDEN');
    }
  });

  it('answers the operator', async () => {
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    for (const url of ['/orders', '/orders/stuck', '/webhooks/health']) {
      expect((await ctx.app.inject({ method: 'GET', url: `${ADMIN}${url}`, headers })).statusCode).toBe(200);
    }
  });
});
