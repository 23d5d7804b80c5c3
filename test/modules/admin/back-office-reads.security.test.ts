/**
 * The guard of the back office's reads (KYC queue and file, audit log and export, merchant
 * people and fee tiers, reconciliations, settlements due): no credentials 401, a merchant's
 * key+secret or bearer token 403, before any lookup or validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { callAsAdmin } from '../../helpers/factories.ts';
import { ADMIN, SOME_ID } from './helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const ROUTES = [
  '/receivers',
  '/receivers?kycStatus=APPROVED',
  `/receivers/${SOME_ID}/kyc`,
  '/audit-log',
  '/audit-log/export',
  '/reports/operations?month=2026-11',
  `/merchants/${SOME_ID}/users`,
  `/merchants/${SOME_ID}/fee-tiers`,
  '/treasury/reconciliations',
  '/settlements/due',
];

describe('back office reads: the guard', () => {
  it.each(ROUTES)('GET %s: no credentials or a wrong token is 401', async (url) => {
    for (const headers of [{}, { authorization: 'Bearer wrong-admin-token-0123456789abcdef0123456789' }]) {
      expectErrorBody(await ctx.app.inject({ method: 'GET', url: `${ADMIN}${url}`, headers }), 401, 'UNAUTHORIZED');
    }
  });

  it.each(ROUTES)("GET %s: a merchant's key+secret or bearer token is 403", async (url) => {
    const merchant = await ctx.createMerchant('Nosy');
    for (const headers of [merchant.headers, await ctx.bearerFor(merchant)]) {
      expectErrorBody(await ctx.app.inject({ method: 'GET', url: `${ADMIN}${url}`, headers }), 403, 'FORBIDDEN');
    }
  });

  it('on the sandbox chain nothing is reconciled: the list is empty', async () => {
    const response = await callAsAdmin(ctx, 'GET', '/treasury/reconciliations');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [] });
  });
});
