/**
 * The operator API under /api/v1/admin: its guard (admin token only; merchants 403; absent
 * when ADMIN_TOKEN is unset), merchants and credentials management, and the audit trail each
 * action leaves in admin_audit_log.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/types.ts';
import { ADMIN_TOKEN, createTestContext, expectErrorBody, type TestContext, type TestMerchant } from '../helpers/app.ts';

const ADMIN = '/api/v1/admin';
const MERCHANT_URL = '/api/v1/merchant';
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const API_KEY = /^mk_[0-9a-f]{32}$/;
const API_SECRET = /^sk_[A-Za-z0-9_-]{43}$/;
/** A well-formed id that names nothing, for routes the guard must refuse before any lookup. */
const SOME_ID = '00000000-0000-4000-8000-000000000001';
const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface MerchantBody {
  id: string;
  name: string;
  status: 'ACTIVE' | 'DISABLED';
  createdAt: string;
}
interface CredentialBody {
  id: string;
  apiKey: string;
  createdAt: string;
  revokedAt: string | null;
}
interface IssuedCredentialBody extends CredentialBody {
  apiSecret: string;
}

let ctx: TestContext;
/** Every secret this file saw: none may ever appear in the audit log. */
const issuedSecrets: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

function admin(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, app: App = ctx.app): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `${ADMIN}${url}`,
    headers: adminHeaders,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

function getMerchant(headers: Record<string, string>): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'GET', url: MERCHANT_URL, headers });
}

const keyHeaders = (credential: { apiKey: string; apiSecret: string }) => ({ 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret });

async function createViaApi(name: string): Promise<{ merchant: MerchantBody; credential: IssuedCredentialBody; response: LightMyRequestResponse }> {
  const response = await admin('POST', '/merchants', { name });
  expect(response.statusCode).toBe(201);
  const body = response.json() as { merchant: MerchantBody; credential: IssuedCredentialBody };
  issuedSecrets.push(body.credential.apiSecret);
  return { ...body, response };
}

async function createViaService(name: string): Promise<TestMerchant> {
  const merchant = await ctx.createMerchant(name);
  issuedSecrets.push(merchant.apiSecret);
  return merchant;
}

function auditRows() {
  return ctx.database.db.selectFrom('admin_audit_log').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** The one audit row of this action on this target, checked against the response that caused it. */
async function expectAudit(action: string, targetType: string, targetId: string, response: LightMyRequestResponse, details: Record<string, unknown>) {
  const rows = (await auditRows()).filter((row) => row.action === action && row.target_id === targetId);
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  expect(row.target_type).toBe(targetType);
  expect(row.actor.startsWith('admin-api')).toBe(true);
  expect(row.actor).toBe('admin-api@127.0.0.1');
  expect(typeof response.headers['x-request-id']).toBe('string');
  expect(row.request_id).toBe(response.headers['x-request-id']);
  expect(row.details).toEqual(details);
  expect(row.created_at).toBeInstanceOf(Date);
  return row;
}

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
    await ctx.app.services.merchants.setMerchantStatus(merchant.merchantId, 'DISABLED', { actor: 'test' });
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

  it('with ADMIN_TOKEN unset, the admin routes do not exist (404 NOT_FOUND even with the right token)', async () => {
    const app = await ctx.buildApp({ ADMIN_TOKEN: '' });
    for (const [method, url] of [
      ['GET', '/merchants'],
      ['POST', '/merchants'],
      ['GET', `/merchants/${randomUUID()}`],
    ] as const) {
      const response = await admin(method, url, method === 'POST' ? { name: 'Ghost' } : undefined, app);
      expectErrorBody(response, 404, 'NOT_FOUND');
      const bare = await app.inject({ method, url: `${ADMIN}${url}` });
      expectErrorBody(bare, 404, 'NOT_FOUND');
    }
    // The merchant API of that app still works.
    const merchant = await createViaService('Still served');
    expect((await app.inject({ method: 'GET', url: MERCHANT_URL, headers: merchant.headers })).statusCode).toBe(200);
  });
});

describe('POST /admin/merchants', () => {
  it('creates an ACTIVE merchant with a working credential, and audits it', async () => {
    const { merchant, credential, response } = await createViaApi('Loja Exemplo Ltda');
    const body = response.json() as Record<string, Record<string, unknown>>;
    expect(Object.keys(body).sort()).toEqual(['credential', 'merchant']);
    expect(Object.keys(body.merchant!).sort()).toEqual(['createdAt', 'id', 'name', 'status']);
    expect(Object.keys(body.credential!).sort()).toEqual(['apiKey', 'apiSecret', 'createdAt', 'id', 'revokedAt']);
    expect(merchant).toEqual({ id: expect.stringMatching(UUID), name: 'Loja Exemplo Ltda', status: 'ACTIVE', createdAt: expect.stringMatching(ISO_TIMESTAMP) });
    expect(credential).toEqual({
      id: expect.stringMatching(UUID),
      apiKey: expect.stringMatching(API_KEY),
      apiSecret: expect.stringMatching(API_SECRET),
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

  it('validates the name: too short, too long, missing, wrong type, and unknown properties are 400', async () => {
    const before = (await auditRows()).length;
    const countBefore = await ctx.app.services.merchants.countMerchants();

    const short = expectErrorBody(await admin('POST', '/merchants', { name: 'A' }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(short.details ?? {})).toEqual(['body.name']);

    const long = expectErrorBody(await admin('POST', '/merchants', { name: 'x'.repeat(256) }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(long.details ?? {})).toEqual(['body.name']);

    const missing = expectErrorBody(await admin('POST', '/merchants', {}), 400, 'VALIDATION_ERROR');
    expect(missing.details).toEqual({ 'body.name': 'is required' });

    const wrongType = expectErrorBody(await admin('POST', '/merchants', { name: 42 }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(wrongType.details ?? {})).toEqual(['body.name']);

    const extra = expectErrorBody(await admin('POST', '/merchants', { name: 'Fine Name', status: 'DISABLED' }), 400, 'VALIDATION_ERROR');
    expect(extra.details).toEqual({ 'body.status': 'is not an allowed property' });

    expect((await auditRows()).length).toBe(before);
    expect(await ctx.app.services.merchants.countMerchants()).toBe(countBefore);

    // The boundaries themselves are accepted.
    expect((await createViaApi('AB')).merchant.name).toBe('AB');
    expect((await createViaApi('y'.repeat(255))).merchant.name).toBe('y'.repeat(255));
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
    const newest = await ctx.database.db.selectFrom('merchants').select('id').orderBy('id', 'desc').limit(20).execute();
    const expectedIds = newest.map((row) => row.id);
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

  it.each([
    ['page=1&limit=101', 'querystring.limit'],
    ['page=1&limit=0', 'querystring.limit'],
    ['page=1&limit=abc', 'querystring.limit'],
    ['page=1&limit=2.5', 'querystring.limit'],
    ['page=1&limit=0x10', 'querystring.limit'],
    ['page=0&limit=2', 'querystring.page'],
    ['page=-1&limit=2', 'querystring.page'],
    ['page=1000001&limit=2', 'querystring.page'],
    ['page=1&limit=2&sort=name', 'querystring.sort'],
  ])('?%s is 400 VALIDATION_ERROR naming %s', async (query, field) => {
    const body = expectErrorBody(await admin('GET', `/merchants?${query}`), 400, 'VALIDATION_ERROR');
    expect(Object.keys(body.details ?? {})).toEqual([field]);
  });

  it('limit=100 is allowed', async () => {
    const response = await admin('GET', '/merchants?page=1&limit=100');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ page: 1, limit: 100 });
  });
});

describe('GET /admin/merchants/{id}', () => {
  it('answers the merchant, 404 for an unknown id and 400 for a malformed id', async () => {
    const { merchant } = await createViaApi('Lookup');
    const found = await admin('GET', `/merchants/${merchant.id}`);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual(merchant);

    expectErrorBody(await admin('GET', `/merchants/${randomUUID()}`), 404, 'NOT_FOUND');

    for (const bad of ['not-a-uuid', '123', `${merchant.id}x`, "1' or '1'='1"]) {
      const body = expectErrorBody(await admin('GET', `/merchants/${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR');
      expect(Object.keys(body.details ?? {})).toEqual(['params.id']);
    }
  });

  // ajv-formats' uuid pattern accepts a `urn:uuid:` prefix that PostgreSQL refuses; ours does not.
  it('a urn:uuid:-prefixed id is 400 VALIDATION_ERROR, not a 500 from the database', async () => {
    const response = await admin('GET', `/merchants/urn:uuid:${randomUUID()}`);
    expectErrorBody(response, 400, 'VALIDATION_ERROR');
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

  it('unknown merchant is 404; malformed id is 400', async () => {
    for (const action of ['disable', 'enable']) {
      expectErrorBody(await admin('POST', `/merchants/${randomUUID()}/${action}`), 404, 'NOT_FOUND');
      expectErrorBody(await admin('POST', `/merchants/nope/${action}`), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('credentials', () => {
  it('issues, lists (without secrets), revokes idempotently, and audits', async () => {
    const { merchant, credential: first } = await createViaApi('Credentials');

    const issue = await admin('POST', `/merchants/${merchant.id}/credentials`);
    expect(issue.statusCode).toBe(201);
    const second = issue.json() as IssuedCredentialBody;
    issuedSecrets.push(second.apiSecret);
    expect(Object.keys(second).sort()).toEqual(['apiKey', 'apiSecret', 'createdAt', 'id', 'revokedAt']);
    expect(second).toEqual({
      id: expect.stringMatching(UUID),
      apiKey: expect.stringMatching(API_KEY),
      apiSecret: expect.stringMatching(API_SECRET),
      createdAt: expect.stringMatching(ISO_TIMESTAMP),
      revokedAt: null,
    });
    expect(second.apiKey).not.toBe(first.apiKey);
    expect(second.apiSecret).not.toBe(first.apiSecret);
    await expectAudit('credential.issue', 'credential', second.id, issue, { merchantId: merchant.id, apiKey: second.apiKey });

    const me = await getMerchant(keyHeaders(second));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(merchant);

    const list = await admin('GET', `/merchants/${merchant.id}/credentials`);
    expect(list.statusCode).toBe(200);
    const items = list.json() as Array<Record<string, unknown>>;
    expect(items).toHaveLength(2);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['apiKey', 'createdAt', 'id', 'revokedAt']);
    expect(items).toEqual([
      { id: second.id, apiKey: second.apiKey, createdAt: second.createdAt, revokedAt: null },
      { id: first.id, apiKey: first.apiKey, createdAt: first.createdAt, revokedAt: null },
    ]);
    expect(list.body).not.toContain(first.apiSecret);
    expect(list.body).not.toContain(second.apiSecret);
    expect(list.body.toLowerCase()).not.toContain('secret');
    expect(list.body.toLowerCase()).not.toContain('hash');

    const revoke = await admin('DELETE', `/merchants/${merchant.id}/credentials/${second.id}`);
    expect(revoke.statusCode).toBe(200);
    const revoked = revoke.json() as CredentialBody;
    expect(revoked).toEqual({ id: second.id, apiKey: second.apiKey, createdAt: second.createdAt, revokedAt: expect.stringMatching(ISO_TIMESTAMP) });
    await expectAudit('credential.revoke', 'credential', second.id, revoke, { merchantId: merchant.id, apiKey: second.apiKey });

    expectErrorBody(await getMerchant(keyHeaders(second)), 401, 'UNAUTHORIZED');
    // The merchant's other credential still works.
    expect((await getMerchant(keyHeaders(first))).statusCode).toBe(200);

    // Revoking again is idempotent: same answer, same revokedAt, no second audit row.
    const again = await admin('DELETE', `/merchants/${merchant.id}/credentials/${second.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(revoked);
    expect((await auditRows()).filter((row) => row.action === 'credential.revoke' && row.target_id === second.id)).toHaveLength(1);

    const after = (await admin('GET', `/merchants/${merchant.id}/credentials`)).json() as CredentialBody[];
    expect(after).toEqual([revoked, { id: first.id, apiKey: first.apiKey, createdAt: first.createdAt, revokedAt: null }]);
  });

  it("another merchant's credential id under this merchant is 404, and stays live", async () => {
    const { merchant } = await createViaApi('Owner');
    const { merchant: otherMerchant, credential: otherCredential } = await createViaApi('Other owner');

    expectErrorBody(await admin('DELETE', `/merchants/${merchant.id}/credentials/${otherCredential.id}`), 404, 'NOT_FOUND');
    expectErrorBody(await admin('DELETE', `/merchants/${merchant.id}/credentials/${randomUUID()}`), 404, 'NOT_FOUND');

    const me = await getMerchant(keyHeaders(otherCredential));
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(otherMerchant);
    expect((await auditRows()).filter((row) => row.action === 'credential.revoke' && row.target_id === otherCredential.id)).toHaveLength(0);
  });

  it('unknown merchant is 404 for issue and list; malformed ids are 400', async () => {
    const unknown = randomUUID();
    expectErrorBody(await admin('POST', `/merchants/${unknown}/credentials`), 404, 'NOT_FOUND');
    expectErrorBody(await admin('GET', `/merchants/${unknown}/credentials`), 404, 'NOT_FOUND');
    expectErrorBody(await admin('GET', '/merchants/nope/credentials'), 400, 'VALIDATION_ERROR');
    const { merchant } = await createViaApi('Bad credential id');
    const body = expectErrorBody(await admin('DELETE', `/merchants/${merchant.id}/credentials/nope`), 400, 'VALIDATION_ERROR');
    expect(Object.keys(body.details ?? {})).toEqual(['params.credentialId']);
    const count = await ctx.database.db
      .selectFrom('api_credentials')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('merchant_id', '=', unknown)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});

describe('audit log', () => {
  it('holds every admin action with actor, target and request id, and never a secret or a secret hash', async () => {
    // One of each action, so this test stands on its own.
    const { merchant } = await createViaApi('Audited');
    expect((await admin('POST', `/merchants/${merchant.id}/disable`)).statusCode).toBe(200);
    expect((await admin('POST', `/merchants/${merchant.id}/enable`)).statusCode).toBe(200);
    const issue = await admin('POST', `/merchants/${merchant.id}/credentials`);
    expect(issue.statusCode).toBe(201);
    const issued = issue.json() as IssuedCredentialBody;
    issuedSecrets.push(issued.apiSecret);
    expect((await admin('DELETE', `/merchants/${merchant.id}/credentials/${issued.id}`)).statusCode).toBe(200);

    const rows = await auditRows();
    const adminRows = rows.filter((row) => row.actor.startsWith('admin-api'));
    const actions = new Set(adminRows.map((row) => row.action));
    expect([...actions]).toEqual(
      expect.arrayContaining(['credential.issue', 'credential.revoke', 'merchant.create', 'merchant.disable', 'merchant.enable']),
    );
    for (const row of adminRows) {
      expect(row.request_id).toEqual(expect.any(String));
      expect(row.target_id).toEqual(expect.stringMatching(UUID));
    }

    expect(issuedSecrets.length).toBeGreaterThanOrEqual(2);
    const hashes = (await ctx.database.db.selectFrom('api_credentials').select('secret_hash').execute()).map((row) => row.secret_hash);
    const dump = JSON.stringify(rows);
    for (const secret of issuedSecrets) expect(dump).not.toContain(secret);
    for (const hash of hashes) expect(dump).not.toContain(hash);
    expect(dump).not.toMatch(/sk_[A-Za-z0-9_-]{43}/);
  });
});
