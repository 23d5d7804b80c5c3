/**
 * The Team page's routes through the HTTP API (issue 28): pending invitations listed and
 * withdrawn (a withdrawn link is 410 like a used one), and every team and API-key change in the
 * merchant's audit log (GET /audit-log), with the person, the target and before/after.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogEmailSender } from '../../../src/adapters/email/log.ts';
import type { App } from '../../../src/http/types.ts';
import { createTestContext, expectErrorBody, TestClock, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { PASSWORD, peopleOf } from '../../helpers/people.ts';

const clock = new TestClock(new Date('2026-11-26T12:00:00Z'));

describe('invitations and the team audit log', () => {
  let ctx: TestContext;
  let app: App;
  let merchant: TestMerchant;
  let people: ReturnType<typeof peopleOf>;
  let outbox: LogEmailSender['outbox'];

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    app = ctx.app;
    outbox = (app.services.email as LogEmailSender).outbox;
    merchant = await ctx.createMerchant();
    people = peopleOf(app, merchant.merchantId, clock, 'team');
  });
  afterAll(() => ctx?.close());

  const tokenFor = (to: string) =>
    vi.waitFor(() => {
      const match = outbox.findLast((m) => m.to === to)?.text.match(/\/app\/accept-invitation#([A-Za-z0-9_-]{43})/);
      if (!match) throw new Error(`no invitation to ${to} yet`);
      return match[1]!;
    });

  it('lists pending invitations to OWNER and ADMIN only; withdrawing one kills its link (410) and drops it from the list', async () => {
    const admin = await people.manager('ADMIN');
    const { as, call } = people;
    const invited = await call('POST', '/users/invitations', as(admin), { email: 'pending@example.com', role: 'VIEWER' });
    expect(invited.statusCode, invited.body).toBe(202);
    const invitation = invited.json();
    expect(invitation).toMatchObject({ email: 'pending@example.com', role: 'VIEWER', invitedBy: admin.id });
    const token = await tokenFor('pending@example.com');

    const listed = await call('GET', '/users/invitations', as(admin));
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual(invitation);
    expect(JSON.stringify(listed.json())).not.toContain(token);

    const viewer = await people.signedIn('VIEWER');
    expectErrorBody(await call('GET', '/users/invitations', as(viewer)), 403, 'FORBIDDEN');
    expectErrorBody(await call('DELETE', `/users/invitations/${invitation.id}`, as(viewer)), 403, 'FORBIDDEN');
    expectErrorBody(await call('GET', '/users/invitations', merchant.headers), 403, 'FORBIDDEN');

    const other = await ctx.createMerchant('Other');
    const outsider = await peopleOf(app, other.merchantId, clock, 'outsider').manager('OWNER');
    expectErrorBody(await call('DELETE', `/users/invitations/${invitation.id}`, as(outsider)), 404, 'NOT_FOUND');

    expect((await call('DELETE', `/users/invitations/${invitation.id}`, as(admin))).statusCode).toBe(204);
    expect((await call('DELETE', `/users/invitations/${invitation.id}`, as(admin))).statusCode, 'again: unchanged').toBe(204);
    expect((await call('GET', '/users/invitations', as(admin))).json()).not.toContainEqual(invitation);
    expectErrorBody(await call('POST', `/auth/invitations/${token}`, {}, { password: PASSWORD }), 410, 'LINK_INVALID');
  });

  it('an ADMIN cannot withdraw an invitation to be OWNER; an accepted invitation is 409', async () => {
    const owner = await people.manager('OWNER');
    const admin = await people.manager('ADMIN');
    const { as, call } = people;
    const toOwner = (await call('POST', '/users/invitations', as(owner), { email: 'next-owner@example.com', role: 'OWNER' })).json();
    expectErrorBody(await call('DELETE', `/users/invitations/${toOwner.id}`, as(admin)), 403, 'FORBIDDEN');
    const accepted = (await call('POST', '/users/invitations', as(admin), { email: 'accepts@example.com', role: 'DEVELOPER' })).json();
    expect((await call('POST', `/auth/invitations/${await tokenFor('accepts@example.com')}`, {}, { password: PASSWORD })).statusCode).toBe(201);
    expectErrorBody(await call('DELETE', `/users/invitations/${accepted.id}`, as(admin)), 409, 'CONFLICT');
  });

  it('records invite, withdrawal, role change, removal and key create/revoke with the person, the target and before/after; readable by GET /audit-log with cursor and filters', async () => {
    const owner = await people.manager('OWNER');
    const { as, call } = people;
    const invitation = (await call('POST', '/users/invitations', as(owner), { email: 'audited@example.com', role: 'DEVELOPER' })).json();
    expect((await call('DELETE', `/users/invitations/${invitation.id}`, as(owner))).statusCode).toBe(204);
    const member = await people.newUser('DEVELOPER');
    expect((await call('PATCH', `/users/${member.id}`, as(owner), { role: 'VIEWER' })).statusCode).toBe(200);
    expect((await call('DELETE', `/users/${member.id}`, as(owner))).statusCode).toBe(204);
    const key = (await call('POST', '/credentials', as(owner), { label: 'audited key', scopes: ['read'] })).json();
    expect((await call('DELETE', `/credentials/${key.id}`, as(owner))).statusCode).toBe(200);

    const byOwner = await call('GET', `/audit-log?actor=user:${owner.id}&limit=100`, as(owner));
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    const entries = byOwner.json().data as Array<{ action: string; targetId: string; details: Record<string, unknown> }>;
    const find = (action: string, targetId: string) => entries.find((e) => e.action === action && e.targetId === targetId);
    expect(find('user.invite', invitation.id)?.details).toMatchObject({ after: { email: 'audited@example.com', role: 'DEVELOPER' } });
    expect(find('user.withdraw_invitation', invitation.id)?.details).toMatchObject({ before: { email: 'audited@example.com' }, after: null });
    expect(find('user.set_role', member.id)?.details).toMatchObject({ before: { role: 'DEVELOPER' }, after: { role: 'VIEWER' } });
    expect(find('user.remove', member.id)?.details).toMatchObject({ before: { role: 'VIEWER', email: member.email }, after: null });
    expect(find('credential.issue', key.id)?.details).toMatchObject({ after: { label: 'audited key', scopes: ['read'] } });
    expect(find('credential.revoke', key.id)?.details).toMatchObject({ before: { revokedAt: null } });
    expect(JSON.stringify(entries)).not.toContain(key.apiSecret);
    expect(entries.map((e) => e.action).slice(0, 6)).toEqual(['credential.revoke', 'credential.issue', 'user.remove', 'user.set_role', 'user.withdraw_invitation', 'user.invite']);

    // Cursor paging walks the same entries, newest first, without overlap.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Array<{ action: string }>; nextCursor: string | null } = (await call('GET', `/audit-log?actor=user:${owner.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, as(owner))).json();
      walked.push(...page.data.map((e) => e.action));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked).toEqual(entries.map((e) => e.action));

    const revokes = (await call('GET', '/audit-log?action=credential.revoke', as(owner))).json().data;
    expect(revokes.every((e: { action: string }) => e.action === 'credential.revoke')).toBe(true);
    expect((await call('GET', `/audit-log?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, as(owner))).json().data).toEqual([]);

    // A VIEWER may not read it; another merchant sees none of it.
    expectErrorBody(await call('GET', '/audit-log', as(await people.signedIn('VIEWER'))), 403, 'FORBIDDEN');
    const other = await ctx.createMerchant('Elsewhere');
    const theirs = (await call('GET', '/audit-log?limit=100', other.headers)).json().data;
    expect(theirs.some((e: { targetId: string }) => e.targetId === key.id)).toBe(false);
    // A read-scoped key may read it.
    expect((await call('GET', '/audit-log', merchant.headers)).statusCode).toBe(200);
  });
});
