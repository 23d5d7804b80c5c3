/**
 * A merchant's own API keys through the HTTP API (issue 28): who may create and revoke them (a
 * session of an OWNER or ADMIN with TOTP, never an API key), the secret shown once, revocation
 * effective at once, the audit trail with the person, and no secret in the logs.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/http/types.ts';
import { createLogger } from '../../../src/logger.ts';
import { createTestContext, TestClock, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { peopleOf, type Person, type Role } from '../../helpers/people.ts';

const clock = new TestClock(new Date('2026-11-26T12:00:00Z'));

describe('self-service API keys', () => {
  let ctx: TestContext;
  let app: App;
  let merchant: TestMerchant;
  const logLines: string[] = [];
  let people: ReturnType<typeof peopleOf>;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    const logger = createLogger('info', new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }));
    app = await ctx.buildApp({}, logger);
    merchant = await ctx.createMerchant();
    people = peopleOf(app, merchant.merchantId, clock, 'keys');
  });
  afterAll(() => ctx?.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: object) => people.call(method, url, headers, payload);
  const as = (person: Person, extra: Record<string, string> = {}) => ({ ...people.as(person), ...extra });
  const signedIn = (role: Role, withTotp: boolean): Promise<Person> => people.signedIn(role, withTotp);

  const audit = (targetId: string) => ctx.database.db.selectFrom('admin_audit_log').selectAll().where('target_id', '=', targetId).orderBy('created_at').execute();

  it('an OWNER without TOTP, a VIEWER, a DEVELOPER and an API key cannot create a key', async () => {
    const noTotp = await call('POST', '/credentials', as(await signedIn('OWNER', false)));
    expect(noTotp.statusCode).toBe(403);
    expect(noTotp.json().details.reason).toBe('TOTP_ENROLMENT_REQUIRED');
    for (const role of ['VIEWER', 'DEVELOPER'] as const) {
      const refused = await call('POST', '/credentials', as(await signedIn(role, true)));
      expect(refused.statusCode, role).toBe(403);
      expect(refused.json().details).toMatchObject({ reason: 'ROLE_NOT_ALLOWED', permission: 'credentials.manage' });
    }
    const byKey = await call('POST', '/credentials', merchant.headers);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().details.reason).toBe('SESSION_REQUIRED');
    const bearer = await call('POST', '/credentials', await ctx.bearerFor(merchant));
    expect(bearer.json().details.reason).toBe('SESSION_REQUIRED');
  });

  it('an OWNER with TOTP creates a key: the secret once, never in GET; the key works; revoking it refuses it at once; both audited with the person', async () => {
    const owner = await signedIn('OWNER', true);
    const created = await call('POST', '/credentials', as(owner, { 'idempotency-key': 'create-key-1' }), { label: 'production server' });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({ apiKey: expect.stringMatching(/^mk_/), apiSecret: expect.stringMatching(/^sk_/), label: 'production server', revokedAt: null });
    expect((await call('POST', '/credentials', as(owner), { label: '' })).statusCode).toBe(400);

    const listed = await call('GET', '/credentials', as(owner));
    expect(listed.statusCode).toBe(200);
    expect(listed.json().map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([merchant.credentialId, key.id]));
    expect(listed.body).not.toContain(key.apiSecret);
    expect(listed.body).not.toMatch(/apiSecret|secret_hash/);
    // A VIEWER reads the list too (read), with the same shape.
    expect((await call('GET', '/credentials', as(await signedIn('VIEWER', false)))).statusCode).toBe(200);

    const newKeyHeaders = { 'x-api-key': key.apiKey, 'x-api-secret': key.apiSecret };
    expect((await call('GET', '/merchant', newKeyHeaders)).statusCode).toBe(200);

    const revoked = await call('DELETE', `/credentials/${key.id}`, as(owner));
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().revokedAt).not.toBeNull();
    // The key was just cached by the GET above: the revocation drops it in this process.
    expect((await call('GET', '/merchant', newKeyHeaders)).statusCode).toBe(401);

    const rows = await audit(key.id);
    expect(rows.map((row) => [row.action, row.actor])).toEqual([
      ['credential.issue', `user:${owner.id}`],
      ['credential.revoke', `user:${owner.id}`],
    ]);
    expect(JSON.stringify(rows)).not.toContain(key.apiSecret);
    expect(logLines.join('')).not.toContain(key.apiSecret);
  });

  it("the answer replayed for an Idempotency-Key is the sender's alone", async () => {
    const admin = await signedIn('ADMIN', true);
    const other = await signedIn('ADMIN', true);
    const first = await call('POST', '/credentials', as(admin, { 'idempotency-key': 'shared-key' }));
    expect(first.statusCode, first.body).toBe(201);
    // No body at all is a key without a label.
    expect(first.json().label).toBeNull();
    expect((await call('POST', '/credentials', as(admin, { 'idempotency-key': 'shared-key' }))).json().id).toBe(first.json().id);
    const theirs = await call('POST', '/credentials', as(other, { 'idempotency-key': 'shared-key' }));
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().apiSecret).not.toBe(first.json().apiSecret);
  });

  it('an API key cannot revoke (its own or another); another merchant’s key is 404', async () => {
    const byKey = await call('DELETE', `/credentials/${merchant.credentialId}`, merchant.headers);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().details.reason).toBe('SESSION_REQUIRED');
    const other = await ctx.createMerchant();
    const owner = await signedIn('OWNER', true);
    expect((await call('DELETE', `/credentials/${other.credentialId}`, as(owner))).statusCode).toBe(404);
    expect((await call('GET', '/merchant', other.headers)).statusCode).toBe(200);
  });
});
