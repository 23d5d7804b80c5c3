/**
 * People and sessions through the HTTP API (docs/architecture/people-and-sessions.md): sign-in and
 * its cookie, CSRF, throttling, TOTP, the role table, revocation, and no secret in answers or logs.
 */
import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEmailSender } from '../../../src/adapters/email/log.ts';
import type { App } from '../../../src/http/types.ts';
import { createLogger } from '../../../src/logger.ts';
import { createTestContext, expectErrorBody, TestClock, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { PASSWORD, peopleOf, type Person, type Role } from '../../helpers/people.ts';

const clock = new TestClock(new Date('2026-11-26T12:00:00Z'));

describe('people and sessions', () => {
  let ctx: TestContext;
  let app: App;
  let merchant: TestMerchant;
  const logLines: string[] = [];
  let n = 0;
  let people: ReturnType<typeof peopleOf>;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    const logger = createLogger('info', new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }));
    app = await ctx.buildApp({}, logger);
    merchant = await ctx.createMerchant();
    people = peopleOf(app, merchant.merchantId, clock, 'person');
  });
  afterAll(() => ctx?.close());

  const call: ReturnType<typeof peopleOf>['call'] = (...args) => people.call(...args);
  const as: ReturnType<typeof peopleOf>['as'] = (...args) => people.as(...args);
  const newUser = (role: Role) => people.newUser(role);
  const signIn: ReturnType<typeof peopleOf>['signIn'] = (...args) => people.signIn(...args);
  const sessionOf = (response: LightMyRequestResponse): Person => people.sessionOf(response);
  const signedIn = (role: Role) => people.signedIn(role);
  const codeFor: ReturnType<typeof peopleOf>['codeFor'] = (...args) => people.codeFor(...args);
  const enrolTotp = (person: Person) => people.enrolTotp(person);

  it('signs in with the right password: an HttpOnly, SameSite=Strict, Path=/ cookie and a CSRF token; the hash is Argon2id', async () => {
    const { email } = await newUser('DEVELOPER');
    const response = await signIn(email.toUpperCase());
    expect(response.statusCode, response.body).toBe(201);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    // NODE_ENV=test serves plain http: no Secure (production sets it; cookies.test covers the rule).
    expect(cookie).not.toContain('Secure');
    expect(response.json()).toMatchObject({ user: { email, role: 'DEVELOPER', totpEnabled: false }, totpEnrolmentRequired: false, permissions: ['read', 'developer.write'] });
    expect(response.body).not.toMatch(/password|argon2/i);
    const row = await ctx.database.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow();
    // Argon2id; its production cost is held by passwords.test.ts (test runs hash cheaper).
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$/);
  });

  it('refuses a wrong password and an unknown email alike (401, same message)', async () => {
    const { email } = await newUser('VIEWER');
    const wrong = expectErrorBody(await signIn(email, 'not the password'), 401, 'UNAUTHORIZED');
    const unknown = expectErrorBody(await signIn('nobody@example.com'), 401, 'UNAUTHORIZED');
    expect(wrong.message).toBe(unknown.message);
  });

  it('throttles a client after 5 failures for one email: 429 with Retry-After even for the right password, then lets it in', async () => {
    const { email } = await newUser('VIEWER');
    for (let i = 0; i < 5; i++) expectErrorBody(await signIn(email, 'wrong'), 401, 'UNAUTHORIZED');
    const locked = await signIn(email);
    expectErrorBody(locked, 429, 'RATE_LIMITED');
    expect(locked.headers['retry-after']).toBe('30');
    clock.advance(31_000);
    expect((await signIn(email)).statusCode).toBe(201);
    // A success resets the count: one more failure does not lock.
    expectErrorBody(await signIn(email, 'wrong'), 401, 'UNAUTHORIZED');
    expect((await signIn(email)).statusCode).toBe(201);
  });

  it('a session cookie reads the merchant API as that merchant', async () => {
    const viewer = await signedIn('VIEWER');
    const response = await call('GET', '/merchant', as(viewer, false));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().id).toBe(merchant.merchantId);
  });

  it('refuses a cookie-authenticated write without the CSRF token (403), and with a wrong one', async () => {
    const developer = await signedIn('DEVELOPER');
    const body = { url: 'http://127.0.0.1:9/hooks' };
    const without = expectErrorBody(await call('POST', '/webhook/endpoints', as(developer, false), body), 403, 'FORBIDDEN');
    expect(without.details).toEqual({ reason: 'CSRF_TOKEN_MISSING_OR_INVALID' });
    expectErrorBody(await call('POST', '/webhook/endpoints', { cookie: developer.cookie, 'x-csrf-token': 'x'.repeat(43) }, body), 403, 'FORBIDDEN');
    expect((await call('POST', '/webhook/endpoints', as(developer), body)).statusCode).toBe(201);
    // API keys are unaffected.
    expect((await call('POST', '/webhook/endpoints', merchant.headers, body)).statusCode).toBe(201);
  });

  it('enforces the role table: a VIEWER cannot write (403), a DEVELOPER writes webhooks but not payments', async () => {
    const viewer = await signedIn('VIEWER');
    const refused = expectErrorBody(await call('POST', '/webhook/endpoints', as(viewer), { url: 'http://127.0.0.1:9/hooks' }), 403, 'FORBIDDEN');
    expect(refused.details).toMatchObject({ reason: 'ROLE_NOT_ALLOWED' });
    expectErrorBody(await call('POST', '/users/invitations', as(viewer), { email: 'x@example.com', role: 'VIEWER' }), 403, 'FORBIDDEN');
    const developer = await signedIn('DEVELOPER');
    expectErrorBody(await call('POST', '/receivers', as(developer), { type: 'PF', document: '52998224725', name: 'Maria da Silva' }), 403, 'FORBIDDEN');
    expectErrorBody(await call('POST', '/users/invitations', as(developer), { email: 'x@example.com', role: 'VIEWER' }), 403, 'FORBIDDEN');
  });

  it('an OWNER without TOTP may only enrol; after enrolment, sign-in needs a current code', async () => {
    const owner = await signedIn('OWNER');
    expect((await call('GET', '/auth/sessions/current', as(owner, false))).json()).toMatchObject({ totpEnrolmentRequired: true, permissions: ['read', 'developer.write', 'payments.write', 'users.manage', 'owners.manage', 'credentials.manage'] });
    const refused = expectErrorBody(await call('GET', '/users', as(owner, false)), 403, 'FORBIDDEN');
    expect(refused.details).toEqual({ reason: 'TOTP_ENROLMENT_REQUIRED' });
    const secret = await enrolTotp(owner);
    expect((await call('GET', '/users', as(owner, false))).statusCode).toBe(200);

    const email = (await call('GET', '/auth/sessions/current', as(owner, false))).json().user.email;
    // Without the code: the same 401 as a wrong password (it confirms nothing).
    const missing = expectErrorBody(await signIn(email), 401, 'UNAUTHORIZED');
    expect(missing.details).toBeUndefined();
    expectErrorBody(await signIn(email, PASSWORD, codeFor(secret, new Date(clock.now().getTime() - 10 * 60_000))), 401, 'UNAUTHORIZED');
    // The code that confirmed the enrolment is spent; the next step's signs in.
    expectErrorBody(await signIn(email, PASSWORD, codeFor(secret)), 401, 'UNAUTHORIZED');
    clock.advance(30_000);
    expect((await signIn(email, PASSWORD, codeFor(secret))).statusCode).toBe(201);
    // Enrolled once: a second enrolment is refused.
    expectErrorBody(await call('POST', '/users/me/totp', as(owner)), 409, 'CONFLICT');
  });

  it('an ADMIN manages users but not owners; a role change ends the user\'s sessions; the last OWNER stays', async () => {
    const admin = await signedIn('ADMIN');
    await enrolTotp(admin);
    // Issue 38: nobody is handed another person's password; people join by an emailed invitation only.
    expect((await call('POST', '/users', as(admin), { email: 'New.Person@Example.com', role: 'DEVELOPER' })).statusCode).toBe(404);
    const invited = await call('POST', '/users/invitations', as(admin), { email: 'New.Person@Example.com', role: 'DEVELOPER' });
    expect(invited.statusCode, invited.body).toBe(202);
    expect(invited.body).not.toMatch(/password|token/i);
    const outbox = (app.services.email as LogEmailSender).outbox;
    const token = outbox.findLast((m) => m.to === 'new.person@example.com')!.text.match(/accept-invitation#([A-Za-z0-9_-]{43})/)![1]!;
    const accepted = await app.inject({ method: 'POST', url: `/api/v1/auth/invitations/${token}`, payload: { password: PASSWORD } });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const user = accepted.json();
    expect(user.email).toBe('new.person@example.com');
    const person = sessionOf(await signIn(user.email, PASSWORD));
    expectErrorBody(await call('POST', '/users/invitations', as(admin), { email: 'new.person@example.com', role: 'VIEWER' }), 409, 'CONFLICT');
    expectErrorBody(await call('POST', '/users/invitations', as(admin), { email: 'boss@example.com', role: 'OWNER' }), 403, 'FORBIDDEN');

    const patched = await call('PATCH', `/users/${user.id}`, as(admin), { role: 'VIEWER' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().role).toBe('VIEWER');
    expectErrorBody(await call('GET', '/merchant', as(person, false)), 401, 'UNAUTHORIZED');

    const owner = await newUser('OWNER');
    expectErrorBody(await call('DELETE', `/users/${owner.id}`, as(admin)), 403, 'FORBIDDEN');
    expect((await call('DELETE', `/users/${user.id}`, as(admin))).statusCode).toBe(204);
    expectErrorBody(await call('DELETE', `/users/${user.id}`, as(admin)), 404, 'NOT_FOUND');
    const list = (await call('GET', '/users', as(admin, false))).json() as Array<{ id: string }>;
    expect(list.map((u) => u.id)).toContain(owner.id);
    expect(JSON.stringify(list)).not.toMatch(/password|totp_secret|argon2/i);
  });

  it('a merchant keeps one OWNER: its last cannot be demoted or removed (409)', async () => {
    const other = await ctx.createMerchant('Solo');
    const email = `solo${++n}@example.com`;
    const { user } = await app.services.users.create(other.merchantId, { email, role: 'OWNER', password: PASSWORD });
    const owner = sessionOf(await signIn(email));
    await enrolTotp(owner);
    expectErrorBody(await call('PATCH', `/users/${user.id}`, as(owner), { role: 'ADMIN' }), 409, 'CONFLICT');
    expectErrorBody(await call('DELETE', `/users/${user.id}`, as(owner)), 409, 'CONFLICT');
    // Another merchant's user is not found.
    expectErrorBody(await call('DELETE', `/users/${(await newUser('VIEWER')).id}`, as(owner)), 404, 'NOT_FOUND');
  });

  it('user management needs a person: an API key is 403 there', async () => {
    expectErrorBody(await call('POST', '/users/invitations', merchant.headers, { email: 'k@example.com', role: 'VIEWER' }), 403, 'FORBIDDEN');
    expect((await call('GET', '/users', merchant.headers)).statusCode).toBe(200);
  });

  it('sign-out revokes the session; another session can be listed and revoked', async () => {
    const { email, ...first } = await signedIn('DEVELOPER');
    const second = sessionOf(await signIn(email));
    const sessions = (await call('GET', '/users/me/sessions', as(second, false))).json() as Array<{ id: string; current: boolean }>;
    expect(sessions).toHaveLength(2);
    const other = sessions.find((s) => !s.current)!;
    expect((await call('DELETE', `/users/me/sessions/${other.id}`, as(second))).statusCode).toBe(204);
    expectErrorBody(await call('GET', '/merchant', as(first, false)), 401, 'UNAUTHORIZED');

    const out = await call('DELETE', '/auth/sessions/current', as(second));
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^sid=; .*Max-Age=0/);
    expectErrorBody(await call('GET', '/merchant', as(second, false)), 401, 'UNAUTHORIZED');
  });

  it('a session ends after 30 idle minutes and 12 hours after sign-in', async () => {
    const idle = await signedIn('VIEWER');
    clock.advance(30 * 60_000);
    expectErrorBody(await call('GET', '/merchant', as(idle, false)), 401, 'UNAUTHORIZED');
    const busy = await signedIn('VIEWER');
    for (let i = 0; i < 25; i++) {
      clock.advance(29 * 60_000);
      if (i < 24) expect((await call('GET', '/merchant', as(busy, false))).statusCode).toBe(200);
    }
    expectErrorBody(await call('GET', '/merchant', as(busy, false)), 401, 'UNAUTHORIZED');
  });

  it("an Idempotency-Key is the person's: another user of the merchant with the same key gets no replay", async () => {
    const owner = await signedIn('OWNER');
    await enrolTotp(owner);
    const admin = await signedIn('ADMIN');
    await enrolTotp(admin);
    const key = { 'idempotency-key': 'same-key-for-both' };
    const body = { email: 'second.owner@example.com', role: 'OWNER' };
    const created = await call('POST', '/users/invitations', { ...as(owner), ...key }, body);
    expect(created.statusCode, created.body).toBe(202);
    expect((await call('POST', '/users/invitations', { ...as(owner), ...key }, body)).headers['idempotent-replayed']).toBe('true');
    const byAdmin = await call('POST', '/users/invitations', { ...as(admin), ...key }, body);
    expectErrorBody(byAdmin, 403, 'FORBIDDEN');
    expect(byAdmin.body).not.toContain(created.json().id);
  });

  it('no password, session id or TOTP secret in any log line', async () => {
    const owner = await signedIn('OWNER');
    const secret = await enrolTotp(owner);
    const logs = logLines.join('');
    expect(logs.length).toBeGreaterThan(0);
    for (const leaked of [PASSWORD, owner.cookie.slice(4), owner.csrf, secret]) expect(logs).not.toContain(leaked);
  });
});
