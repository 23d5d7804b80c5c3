/**
 * The operator API's merchants (/api/v1/admin/merchants), happy paths: creation with a first
 * credential, the newest-first list and its paging, lookup, and disable/enable, each audited in
 * admin_audit_log. Errors and the guard are in merchants.errors / merchants.security.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { API_KEY, API_SECRET, ISO_TIMESTAMP, type MerchantBody, UUID, adminFixture, keyHeaders } from './helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

const { admin, getMerchant, createViaApi, createViaService, auditRows, expectAudit } = adminFixture(() => ctx);

describe('POST /admin/merchants', () => {
  it('creates an ACTIVE merchant with a working credential, and audits it', async () => {
    const { merchant, credential, response } = await createViaApi('Loja Exemplo Ltda');
    const body = response.json() as Record<string, Record<string, unknown>>;
    expect(Object.keys(body).sort()).toEqual(['credential', 'merchant']);
    expect(Object.keys(body.merchant!).sort()).toEqual(['createdAt', 'id', 'name', 'status']);
    expect(Object.keys(body.credential!).sort()).toEqual(['allowedIps', 'apiKey', 'apiSecret', 'createdAt', 'expiresAt', 'id', 'label', 'lastUsedAt', 'revokedAt', 'scopes']);
    expect(merchant).toEqual({ id: expect.stringMatching(UUID), name: 'Loja Exemplo Ltda', status: 'ACTIVE', createdAt: expect.stringMatching(ISO_TIMESTAMP) });
    expect(credential).toEqual({
      id: expect.stringMatching(UUID),
      apiKey: expect.stringMatching(API_KEY),
      apiSecret: expect.stringMatching(API_SECRET),
      label: null,
      expiresAt: null,
      allowedIps: null,
      scopes: null,
      lastUsedAt: null,
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
      revokedAt: null,
    });
    expect(credential.id).not.toBe(merchant.id);

    const me = await getMerchant(keyHeaders(credential));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(merchant);

    const byId = await admin('GET', `/merchants/${merchant.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual(merchant);

    await expectAudit('merchant.create', 'merchant', merchant.id, response, { name: 'Loja Exemplo Ltda', credentialId: credential.id });
  });
});

describe('GET /admin/merchants', () => {
  it('pages newest first with {data, total, page, limit}', async () => {
    await createViaApi('Page One');
    await createViaApi('Page Two');
    await createViaApi('Page Three');
    const all = await ctx.database.db.selectFrom('merchants').select('id').orderBy('id', 'desc').execute();
    const expectedIds = all.map((row) => row.id);
    expect(expectedIds.length).toBeGreaterThanOrEqual(3);

    const first = await admin('GET', '/merchants?page=1&limit=2');
    expect(first.statusCode).toBe(200);
    const page1 = first.json() as { data: MerchantBody[]; total: number; page: number; limit: number };
    expect(Object.keys(page1).sort()).toEqual(['data', 'limit', 'page', 'total']);
    expect(page1.total).toBe(expectedIds.length);
    expect(page1.page).toBe(1);
    expect(page1.limit).toBe(2);
    expect(page1.data.map((m) => m.id)).toEqual(expectedIds.slice(0, 2));
    // Newest first: the last merchant created is on top, in full.
    expect(page1.data[0]).toEqual(await ctx.app.services.merchants.getMerchant(expectedIds[0]!));
    expect(page1.data[0]!.name).toBe('Page Three');
    for (const merchant of page1.data) expect(Object.keys(merchant).sort()).toEqual(['createdAt', 'id', 'name', 'status']);

    const second = (await admin('GET', '/merchants?page=2&limit=2')).json() as typeof page1;
    expect(second).toMatchObject({ total: expectedIds.length, page: 2, limit: 2 });
    expect(second.data.map((m) => m.id)).toEqual(expectedIds.slice(2, 4));

    const beyond = (await admin('GET', '/merchants?page=1000&limit=2')).json() as typeof page1;
    expect(beyond).toEqual({ data: [], total: expectedIds.length, page: 1000, limit: 2 });
  });

  it('page and limit default to 1 and 20 when omitted', async () => {
    // Merchants of its own, one more than a default page, so the default limit shows.
    for (let i = 0; i < 21; i++) await createViaService(`Default page ${i}`);
    const newest = await ctx.database.db.selectFrom('merchants').select('id').orderBy('id', 'desc').limit(20).execute();
    const expectedIds = newest.map((row) => row.id);
    expect(expectedIds).toHaveLength(20);
    const defaults = await admin('GET', '/merchants');
    expect(defaults.statusCode).toBe(200);
    const body = defaults.json() as { data: MerchantBody[]; page: number; limit: number };
    expect(body.page).toBe(1);
    expect(body.limit).toBe(20);
    expect(body.data.map((m) => m.id)).toEqual(expectedIds);

    const onlyLimit = await admin('GET', '/merchants?limit=5');
    expect(onlyLimit.statusCode).toBe(200);
    expect(onlyLimit.json()).toMatchObject({ page: 1, limit: 5 });
  });

  it('limit=100 is allowed', async () => {
    const response = await admin('GET', '/merchants?page=1&limit=100');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ page: 1, limit: 100 });
  });
});

describe('GET /admin/merchants/{id}', () => {
  it('answers the merchant', async () => {
    const { merchant } = await createViaApi('Lookup');
    const found = await admin('GET', `/merchants/${merchant.id}`);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual(merchant);
  });
});

describe('disable and enable', () => {
  it("disabling makes the merchant's credentials 403, enabling restores them; both are audited", async () => {
    const { merchant, credential } = await createViaApi('Toggle');
    const token = await ctx.bearerFor({ merchantId: merchant.id, credentialId: credential.id, apiKey: credential.apiKey, apiSecret: credential.apiSecret, headers: keyHeaders(credential) });

    const disable = await admin('POST', `/merchants/${merchant.id}/disable`);
    expect(disable.statusCode).toBe(200);
    expect(disable.json()).toEqual({ ...merchant, status: 'DISABLED' });
    await expectAudit('merchant.disable', 'merchant', merchant.id, disable, { from: 'ACTIVE', to: 'DISABLED' });

    expectErrorBody(await getMerchant(keyHeaders(credential)), 403, 'FORBIDDEN');
    expectErrorBody(await getMerchant(token), 403, 'FORBIDDEN');
    expect((await admin('GET', `/merchants/${merchant.id}`)).json()).toEqual({ ...merchant, status: 'DISABLED' });

    // Disabling again changes nothing and records nothing.
    const again = await admin('POST', `/merchants/${merchant.id}/disable`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...merchant, status: 'DISABLED' });
    expect((await auditRows()).filter((row) => row.action === 'merchant.disable' && row.target_id === merchant.id)).toHaveLength(1);

    const enable = await admin('POST', `/merchants/${merchant.id}/enable`);
    expect(enable.statusCode).toBe(200);
    expect(enable.json()).toEqual(merchant);
    await expectAudit('merchant.enable', 'merchant', merchant.id, enable, { from: 'DISABLED', to: 'ACTIVE' });

    const me = await getMerchant(keyHeaders(credential));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(merchant);
    expect((await getMerchant(token)).statusCode).toBe(200);
  });
});
