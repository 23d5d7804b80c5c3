/**
 * An API key's restrictions through the HTTP API (issue 28): expiry (401 as an unknown key), the
 * IP allow-list (addresses, CIDR, IPv6; X-Forwarded-For only under TRUST_PROXY), scopes per route
 * class (also for bearer tokens from the key), a key never beyond its creator's role, lastUsedAt
 * written once a minute at most, and the audit entry with the key as created.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../../src/http/types.ts';
import { can } from '../../../src/modules/users/roles.ts';
import { scopeFor, scopesBeyond, SCOPES } from '../../../src/modules/merchants/scopes.ts';
import { createTestContext, expectErrorBody, TestClock, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { peopleOf, type Person } from '../../helpers/people.ts';

const clock = new TestClock(new Date('2026-11-26T12:00:00Z'));

describe('API key restrictions', () => {
  let ctx: TestContext;
  let app: App;
  let merchant: TestMerchant;
  let people: ReturnType<typeof peopleOf>;
  let owner: Person;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    app = ctx.app;
    merchant = await ctx.createMerchant();
    people = peopleOf(app, merchant.merchantId, clock, 'restricted');
    owner = await people.signedIn('OWNER', true);
  });
  afterAll(() => ctx?.close());

  async function createKey(body: object) {
    const created = await people.call('POST', '/credentials', people.as(owner), body);
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json();
    return { id: key.id as string, body: key, headers: { 'x-api-key': key.apiKey as string, 'x-api-secret': key.apiSecret as string } };
  }
  const get = (target: App, headers: Record<string, string>, remoteAddress?: string, url = '/api/v1/merchant') =>
    target.inject({ method: 'GET', url, headers, ...(remoteAddress ? { remoteAddress } : {}) });

  it('returns the restrictions in IssuedCredential and Credential, and audits the key as created (never the secret)', async () => {
    const expiresAt = new Date(clock.now().getTime() + 86_400_000).toISOString();
    const key = await createKey({ label: 'restricted', expiresAt, allowedIps: ['203.0.113.0/24', ' 2001:db8::1 '], scopes: ['read', 'payments.write'] });
    expect(key.body).toMatchObject({ label: 'restricted', expiresAt, allowedIps: ['203.0.113.0/24', '2001:db8::1'], scopes: ['read', 'payments.write'], lastUsedAt: null });
    const listed = (await people.call('GET', '/credentials', people.as(owner))).json().find((c: { id: string }) => c.id === key.id);
    expect(listed).toEqual({ ...key.body, apiSecret: undefined });
    const [entry] = await ctx.database.db.selectFrom('admin_audit_log').selectAll().where('target_id', '=', key.id).execute();
    expect(entry).toMatchObject({ action: 'credential.issue', actor: `user:${owner.id}` });
    expect(entry!.details).toMatchObject({ after: { scopes: ['read', 'payments.write'], allowedIps: ['203.0.113.0/24', '2001:db8::1'], expiresAt } });
    expect(JSON.stringify(entry!.details)).not.toContain(key.headers['x-api-secret']);
  });

  it('refuses bad restrictions with 400: a past or too distant expiry, a malformed address or range, too many entries, an unknown scope', async () => {
    const refused = async (body: object) => {
      const response = await people.call('POST', '/credentials', people.as(owner), body);
      expectErrorBody(response, 400, 'VALIDATION_ERROR');
      return response.json();
    };
    await refused({ expiresAt: new Date(clock.now().getTime() - 1000).toISOString() });
    expect((await refused({ expiresAt: new Date(clock.now().getTime() + 3 * 365 * 86_400_000).toISOString() })).message).toMatch(/2 years/);
    for (const bad of ['300.1.1.1', '10.0.0.0/33', '2001:db8::/129', 'example.com', '10.0.0.1/8/1', '10.0.0.0/-1']) {
      expect((await refused({ allowedIps: [bad] })).details, bad).toHaveProperty(['body.allowedIps']);
    }
    await refused({ allowedIps: Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`) });
    await refused({ scopes: ['everything'] });
    await refused({ scopes: [] });
  });

  it('an expired key answers 401 exactly as an unknown key does', async () => {
    const key = await createKey({ expiresAt: new Date(clock.now().getTime() + 3_600_000).toISOString() });
    expect((await get(app, key.headers)).statusCode).toBe(200);
    clock.advance(3_600_000);
    const expired = await get(app, key.headers);
    expectErrorBody(expired, 401, 'UNAUTHORIZED');
    const unknown = await get(app, { ...key.headers, 'x-api-key': `mk_${'0'.repeat(32)}` });
    expect(expired.json().message).toBe(unknown.json().message);
    expect(expired.json().details).toEqual(unknown.json().details);
    const token = await app.inject({ method: 'POST', url: '/api/v1/auth/token', payload: { apiKey: key.headers['x-api-key'], apiSecret: key.headers['x-api-secret'] } });
    expectErrorBody(token, 401, 'UNAUTHORIZED');
    owner = await people.signedIn('OWNER', true); // the hour outlived the owner's session
  });

  it('an allow-listed key works from its addresses and ranges (IPv4, IPv6, IPv4-mapped) and is 403 IP_NOT_ALLOWED elsewhere', async () => {
    const key = await createKey({ allowedIps: ['203.0.113.0/24', '198.51.100.7', '2001:db8::/32'] });
    for (const ip of ['203.0.113.1', '203.0.113.254', '198.51.100.7', '2001:db8::5', '2001:db8:ffff::1', '::ffff:203.0.113.9']) {
      expect((await get(app, key.headers, ip)).statusCode, ip).toBe(200);
    }
    for (const ip of ['203.0.114.1', '198.51.100.8', '2001:db9::1', '::1', '127.0.0.1']) {
      const refused = await get(app, key.headers, ip);
      expectErrorBody(refused, 403, 'FORBIDDEN');
      expect(refused.json().details, ip).toEqual({ reason: 'IP_NOT_ALLOWED' });
    }
    // A bearer token from the key carries the allow-list.
    const token = await app.inject({ method: 'POST', url: '/api/v1/auth/token', remoteAddress: '203.0.113.1', payload: { apiKey: key.headers['x-api-key'], apiSecret: key.headers['x-api-secret'] } });
    expect(token.statusCode, token.body).toBe(200);
    const bearer = { authorization: `Bearer ${token.json().accessToken}` };
    expect((await get(app, bearer, '203.0.113.1')).statusCode).toBe(200);
    expect((await get(app, bearer, '192.0.2.1')).json().details).toEqual({ reason: 'IP_NOT_ALLOWED' });
  });

  it('X-Forwarded-For counts only when TRUST_PROXY trusts the hop', async () => {
    const key = await createKey({ allowedIps: ['203.0.113.0/24'] });
    const forwarded = { ...key.headers, 'x-forwarded-for': '203.0.113.9' };
    expect((await get(app, forwarded, '10.0.0.1')).json().details).toEqual({ reason: 'IP_NOT_ALLOWED' });
    const behindProxy = await ctx.buildApp({ TRUST_PROXY: '1' });
    expect((await get(behindProxy, forwarded, '10.0.0.1')).statusCode).toBe(200);
    expect((await get(behindProxy, { ...key.headers, 'x-forwarded-for': '192.0.2.1' }, '10.0.0.1')).statusCode).toBe(403);
  });

  it('a scoped key is 403 SCOPE_REQUIRED outside its scopes, per route class; inside them the route runs (here: 400 on an empty body)', async () => {
    const writes: Array<[string, string]> = [
      ['payments.write', '/api/v1/quotes'],
      ['payments.write', '/api/v1/payin'],
      ['receivers.write', '/api/v1/receivers'],
      ['webhooks.write', '/api/v1/webhook/endpoints'],
      ['wallets.sign', '/api/v1/merchant/wallet/sign-transaction'],
      ['sandbox.write', '/api/v1/sandbox/pix-keys'],
    ];
    const readOnly = await createKey({ scopes: ['read'] });
    expect((await get(app, readOnly.headers)).statusCode).toBe(200);
    expect((await get(app, readOnly.headers, undefined, '/api/v1/orders')).statusCode).toBe(200);
    for (const [scope, url] of writes) {
      const refused = await app.inject({ method: 'POST', url, headers: readOnly.headers, payload: {} });
      expectErrorBody(refused, 403, 'FORBIDDEN');
      expect(refused.json().details, url).toEqual({ reason: 'SCOPE_REQUIRED', scope });
      const scoped = await createKey({ scopes: [scope] });
      const admitted = await app.inject({ method: 'POST', url, headers: scoped.headers, payload: {} });
      expect(admitted.statusCode, `${url} with ${scope}: ${admitted.body}`).not.toBe(403);
      expect(admitted.statusCode, url).toBeLessThan(500);
      expect((await get(app, scoped.headers)).json().details, 'no read without read').toEqual({ reason: 'SCOPE_REQUIRED', scope: 'read' });
    }
    // A bearer token from a scoped key has the key's scopes.
    const token = (await app.inject({ method: 'POST', url: '/api/v1/auth/token', payload: { apiKey: readOnly.headers['x-api-key'], apiSecret: readOnly.headers['x-api-secret'] } })).json();
    const viaToken = await app.inject({ method: 'POST', url: '/api/v1/receivers', headers: { authorization: `Bearer ${token.accessToken}` }, payload: {} });
    expect(viaToken.json().details).toEqual({ reason: 'SCOPE_REQUIRED', scope: 'receivers.write' });
    // A key without scopes keeps full access.
    expect((await app.inject({ method: 'POST', url: '/api/v1/receivers', headers: merchant.headers, payload: {} })).statusCode).toBe(400);
  });

  it('every write route of the merchant API has a scope, or is one a person does with a session', () => {
    const paths = (app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
    const sessionOnly = /^\/api\/v1\/(credentials|users|auth)(\/|$)/;
    const unscoped: string[] = [];
    let checked = 0;
    // Paths are relative to the server URL /api/v1; operator, provider and public routes take no API key.
    for (const [relative, operations] of Object.entries(paths)) {
      const path = `/api/v1${relative}`;
      if (/^\/api\/v1\/(admin|pix-provider|wallet\/fee-payer|\.well-known)(\/|$)/.test(path) || sessionOnly.test(path)) continue;
      for (const method of Object.keys(operations)) {
        checked++;
        if (scopeFor(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ':$1')) === undefined) unscoped.push(`${method} ${path}`);
      }
    }
    expect(unscoped).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it('a key never exceeds its creator: scopes map to role permissions', () => {
    expect(scopesBeyond((p) => can('OWNER', p), null)).toEqual([]);
    expect(scopesBeyond((p) => can('ADMIN', p), [...SCOPES])).toEqual([]);
    expect(scopesBeyond((p) => can('DEVELOPER', p), null)).toEqual(['payments.write', 'receivers.write', 'wallets.sign']);
    expect(scopesBeyond((p) => can('DEVELOPER', p), ['read', 'webhooks.write'])).toEqual([]);
    expect(scopesBeyond((p) => can('VIEWER', p), ['read', 'sandbox.write'])).toEqual(['sandbox.write']);
  });

  it('records lastUsedAt after a use, at most once a minute per key, off the request path', async () => {
    const key = await createKey({ label: 'used' });
    const listed = async () => (await people.call('GET', '/credentials', people.as(owner))).json().find((c: { id: string }) => c.id === key.id);
    expect((await listed()).lastUsedAt).toBeNull();
    const usedAt = clock.now().toISOString();
    expect((await get(app, key.headers)).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await listed()).lastUsedAt).toBe(usedAt));
    clock.advance(10_000);
    expect((await get(app, key.headers)).statusCode).toBe(200);
    await vi.waitFor(() => expect(app.services.merchants.pendingLastUses()).toBe(0));
    expect((await listed()).lastUsedAt, 'not written again within the minute').toBe(usedAt);
  });
});
