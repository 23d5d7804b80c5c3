/**
 * Links by email through the HTTP API (docs/architecture/people-and-sessions.md#links-by-email):
 * password reset, password change and invitations, with the development sender's outbox
 * (EMAIL_PROVIDER=log) standing in for the inbox; no password or token in request logs.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogEmailSender } from '../../../src/adapters/email/log.ts';
import type { App } from '../../../src/http/types.ts';
import { createLogger } from '../../../src/logger.ts';
import { createTestContext, expectErrorBody, TestClock, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { PASSWORD, peopleOf, type Person, type Role } from '../../helpers/people.ts';

const NEW_PASSWORD = 'another long enough password';
const clock = new TestClock(new Date('2026-11-26T12:00:00Z'));

describe('links by email: password reset, password change, invitations', () => {
  let ctx: TestContext;
  let app: App;
  let merchant: TestMerchant;
  let outbox: LogEmailSender['outbox'];
  const logLines: string[] = [];
  let n = 0;
  let people: ReturnType<typeof peopleOf>;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    const logger = createLogger('info', new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }));
    app = await ctx.buildApp({}, logger);
    outbox = (app.services.email as LogEmailSender).outbox;
    merchant = await ctx.createMerchant();
    people = peopleOf(app, merchant.merchantId, clock, 'linked');
  });
  afterAll(() => ctx?.close());

  const call: ReturnType<typeof peopleOf>['call'] = (...args) => people.call(...args);
  const as = (person: Person) => people.as(person);
  const newUser = (role: Role) => people.newUser(role);
  const signIn: ReturnType<typeof peopleOf>['signIn'] = (...args) => people.signIn(...args);
  const session = async (email: string, password = PASSWORD): Promise<Person> => people.sessionOf(await signIn(email, password));
  const manager = (role: 'OWNER' | 'ADMIN') => people.manager(role);

  /** The token of the link in the last message to `to`, waiting for it (reset emails leave after the 202). */
  async function linkTokenFor(to: string, path: 'reset-password' | 'accept-invitation'): Promise<string> {
    return vi.waitFor(() => {
      const message = outbox.findLast((m) => m.to === to);
      const match = message?.text.match(new RegExp(`http://localhost:3000/app/${path}#([A-Za-z0-9_-]{43})`));
      if (!match) throw new Error(`no ${path} link to ${to} yet`);
      return match[1]!;
    });
  }

  it('reset: 202, a link by email, a new password that works once; the old password and every session end', async () => {
    const { email } = await newUser('DEVELOPER');
    const before = await session(email);
    const asked = await call('POST', '/auth/password-resets', {}, { email: email.toUpperCase() });
    expect(asked.statusCode, asked.body).toBe(202);
    const token = await linkTokenFor(email, 'reset-password');
    expect(outbox.findLast((m) => m.to === email)!.subject).toBe('Reset your password');

    expect((await call('POST', `/auth/password-resets/${token}`, {}, { password: NEW_PASSWORD })).statusCode).toBe(204);
    expect((await call('GET', '/auth/sessions/current', { cookie: before.cookie })).statusCode).toBe(401);
    expect((await signIn(email)).statusCode).toBe(401);
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(201);

    const again = await call('POST', `/auth/password-resets/${token}`, {}, { password: 'yet another long password' });
    expectErrorBody(again, 410, 'LINK_INVALID');
  });

  it('reset: an unknown email gets the same answer as a known one, and no message leaves', async () => {
    const count = outbox.length;
    const unknown = await call('POST', '/auth/password-resets', {}, { email: 'nobody-here@example.com' });
    const { email } = await newUser('VIEWER');
    const known = await call('POST', '/auth/password-resets', {}, { email });
    expect(unknown.statusCode).toBe(202);
    expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
    await linkTokenFor(email, 'reset-password');
    expect(outbox.length).toBe(count + 1);
    expect(outbox.some((m) => m.to === 'nobody-here@example.com')).toBe(false);
  });

  it('reset: a link expires after 30 minutes; one email per account per minute', async () => {
    const { email } = await newUser('VIEWER');
    await call('POST', '/auth/password-resets', {}, { email });
    const token = await linkTokenFor(email, 'reset-password');
    const sent = outbox.length;
    await call('POST', '/auth/password-resets', {}, { email });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outbox.length).toBe(sent);
    clock.advance(30 * 60_000);
    expectErrorBody(await call('POST', `/auth/password-resets/${token}`, {}, { password: NEW_PASSWORD }), 410, 'LINK_INVALID');
    expect((await signIn(email)).statusCode).toBe(201);
  });

  it('password rules: 12 to 128 characters, 400 VALIDATION_ERROR naming the field', async () => {
    const { email } = await newUser('VIEWER');
    await call('POST', '/auth/password-resets', {}, { email });
    const token = await linkTokenFor(email, 'reset-password');
    expectErrorBody(await call('POST', `/auth/password-resets/${token}`, {}, { password: 'short' }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await call('POST', `/auth/password-resets/${token}`, {}, { password: 'x'.repeat(129) }), 400, 'VALIDATION_ERROR');
    // Refused bodies did not spend the link.
    expect((await call('POST', `/auth/password-resets/${token}`, {}, { password: 'x'.repeat(128) })).statusCode).toBe(204);
  });

  it('change: needs the current password; this session stays, the others end', async () => {
    const { email } = await newUser('DEVELOPER');
    const here = await session(email);
    const elsewhere = await session(email);
    expectErrorBody(await call('POST', '/users/me/password', as(here), { currentPassword: 'not the password', newPassword: NEW_PASSWORD }), 400, 'VALIDATION_ERROR');
    expect((await call('POST', '/users/me/password', { cookie: here.cookie }, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(403);
    expect((await call('POST', '/users/me/password', as(here), { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(204);
    expect((await call('GET', '/auth/sessions/current', { cookie: here.cookie })).statusCode).toBe(200);
    expect((await call('GET', '/auth/sessions/current', { cookie: elsewhere.cookie })).statusCode).toBe(401);
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(201);
    const keyed = expectErrorBody(await call('POST', '/users/me/password', { 'x-api-key': merchant.apiKey, 'x-api-secret': merchant.apiSecret }, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }), 403, 'FORBIDDEN');
    expect(keyed.details).toEqual({ reason: 'SESSION_REQUIRED' });
  });

  it('invitation: an ADMIN invites a DEVELOPER; the link creates the user with that role, once', async () => {
    const admin = await manager('ADMIN');
    const email = `invited${++n}@example.com`;
    const invited = await call('POST', '/users/invitations', as(admin), { email, role: 'DEVELOPER' });
    expect(invited.statusCode, invited.body).toBe(202);
    expect(invited.json()).toMatchObject({ email, role: 'DEVELOPER' });
    const token = await linkTokenFor(email, 'accept-invitation');
    expect(outbox.findLast((m) => m.to === email)!.text).toContain(admin.email);

    const accepted = await call('POST', `/auth/invitations/${token}`, {}, { password: PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({ email, role: 'DEVELOPER', merchantId: merchant.merchantId });
    expect((await signIn(email)).statusCode).toBe(201);
    expectErrorBody(await call('POST', `/auth/invitations/${token}`, {}, { password: PASSWORD }), 410, 'LINK_INVALID');
    // Now a user: inviting them again is 409.
    expectErrorBody(await call('POST', '/users/invitations', as(admin), { email, role: 'VIEWER' }), 409, 'CONFLICT');
  });

  it('invitation: a mail server that fails is 503 PROVIDER_UNAVAILABLE, never a 500', async () => {
    const admin = await manager('ADMIN');
    const sender = app.services.email as LogEmailSender;
    const send = sender.send;
    sender.send = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25'));
    try {
      expectErrorBody(await call('POST', '/users/invitations', as(admin), { email: `unsent${++n}@example.com`, role: 'VIEWER' }), 503, 'PROVIDER_UNAVAILABLE');
    } finally {
      sender.send = send;
    }
  });

  it('invitation: the role table: an ADMIN cannot invite an OWNER, an OWNER can; a DEVELOPER invites no one', async () => {
    const admin = await manager('ADMIN');
    const owners = expectErrorBody(await call('POST', '/users/invitations', as(admin), { email: `owner${++n}@example.com`, role: 'OWNER' }), 403, 'FORBIDDEN');
    expect(owners.details).toEqual({ reason: 'ROLE_NOT_ALLOWED', permission: 'owners.manage' });
    const owner = await manager('OWNER');
    expect((await call('POST', '/users/invitations', as(owner), { email: `owner${++n}@example.com`, role: 'OWNER' })).statusCode).toBe(202);
    const { email } = await newUser('DEVELOPER');
    const developer = await session(email);
    const developers = expectErrorBody(await call('POST', '/users/invitations', as(developer), { email: `someone${++n}@example.com`, role: 'VIEWER' }), 403, 'FORBIDDEN');
    expect(developers.details).toEqual({ reason: 'ROLE_NOT_ALLOWED', permission: 'users.manage' });
  });

  it('invitation: expires after 72 hours', async () => {
    const owner = await manager('OWNER');
    const email = `late${++n}@example.com`;
    expect((await call('POST', '/users/invitations', as(owner), { email, role: 'VIEWER' })).statusCode).toBe(202);
    const token = await linkTokenFor(email, 'accept-invitation');
    clock.advance(72 * 60 * 60_000);
    expectErrorBody(await call('POST', `/auth/invitations/${token}`, {}, { password: PASSWORD }), 410, 'LINK_INVALID');
  });

  it('no password in any log line; a link token only in the development email line', async () => {
    const logs = logLines.join('');
    for (const secret of [PASSWORD, NEW_PASSWORD]) expect(logs).not.toContain(secret);
    const tokens = [...logs.matchAll(/#([A-Za-z0-9_-]{43})/g)].map((m) => m[1]!);
    expect(tokens.length).toBeGreaterThan(0);
    for (const line of logLines) {
      if (tokens.some((token) => line.includes(token))) expect(JSON.parse(line).msg).toBe('email (EMAIL_PROVIDER=log: not sent)');
    }
  });
});
