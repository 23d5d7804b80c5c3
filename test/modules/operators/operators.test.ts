/**
 * Operators (issue 29 item 1): the admin token bootstraps the first one (by an emailed invitation, issue 38); an operator signs in with
 * the same rules as a merchant's user under their own cookie, must enrol TOTP first, and the
 * operator role table is enforced by the API; what moves money is four-eyes only.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, TestClock, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { operatorsOf } from '../../helpers/operators.ts';
import { PASSWORD, peopleOf } from '../../helpers/people.ts';
import { WRITE_PERMISSIONS } from '../../../src/modules/operators/roles.ts';

const clock = new TestClock(new Date('2026-11-26T12:00:00Z'));
const adminToken = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('operators', () => {
  let ctx: TestContext;
  let ops: ReturnType<typeof operatorsOf>;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    ops = operatorsOf(ctx.app, clock, 'op');
  });
  afterAll(async () => ctx?.close());

  it('the admin token invites the first operator, whose emailed link sets a password that signs in to a session that may only enrol TOTP', async () => {
    const created = await ops.call('POST', '/operators', adminToken, { email: 'First.Ops@Example.com', role: 'ADMIN' });
    expect(created.statusCode, created.body).toBe(202);
    expect(created.json()).toMatchObject({ email: 'first.ops@example.com', role: 'ADMIN', invitedBy: 'admin-api@127.0.0.1', approvalId: null });
    expect(Object.keys(created.json())).not.toContain('temporaryPassword');

    const token = ops.invitationTokenTo('first.ops@example.com');
    const accepted = await ctx.app.inject({ method: 'POST', url: `/api/v1/admin/auth/invitations/${token}`, payload: { password: PASSWORD } });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const operator = accepted.json();
    expect(operator).toMatchObject({ email: 'first.ops@example.com', role: 'ADMIN', totpEnabled: false, disabled: false });
    expectErrorBody(await ctx.app.inject({ method: 'POST', url: `/api/v1/admin/auth/invitations/${token}`, payload: { password: PASSWORD } }), 410, 'LINK_INVALID');

    const signedIn = await ops.signIn('first.ops@example.com', PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(201);
    const cookie = String(signedIn.headers['set-cookie']);
    expect(cookie).toMatch(/^osid=[A-Za-z0-9_-]{43}; Path=\/api\/v1\/admin; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(signedIn.json()).toMatchObject({ totpEnrolmentRequired: true, permissions: expect.arrayContaining(['operators.manage']) });
    const first = ops.sessionOf(signedIn);

    const refused = await ops.call('GET', '/merchants', ops.as(first));
    expectErrorBody(refused, 403, 'FORBIDDEN');
    expect(refused.json().details).toEqual({ reason: 'TOTP_ENROLMENT_REQUIRED' });
    expect((await ops.call('GET', '/auth/sessions/current', ops.as(first))).statusCode).toBe(200);

    const audit = await ctx.database.db.selectFrom('admin_audit_log').selectAll().where('action', '=', 'operator.invite').where('target_id', '=', created.json().id).executeTakeFirstOrThrow();
    expect(audit.actor).toBe('admin-api@127.0.0.1');
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('after TOTP, the session works; writes need its CSRF token; the cookie opens no merchant route', async () => {
    const admin = await ops.signedIn('ADMIN');
    expect((await ops.call('GET', '/merchants', ops.as(admin))).statusCode).toBe(200);
    const noCsrf = await ops.call('POST', '/merchants', ops.as(admin, false), { name: 'No CSRF' });
    expectErrorBody(noCsrf, 403, 'FORBIDDEN');
    expect(noCsrf.json().details).toEqual({ reason: 'CSRF_TOKEN_MISSING_OR_INVALID' });
    const created = await ops.call('POST', '/merchants', ops.as(admin), { name: 'By an operator' });
    expect(created.statusCode, created.body).toBe(201);
    const audit = await ctx.database.db.selectFrom('admin_audit_log').select('actor').where('action', '=', 'merchant.create').where('target_id', '=', created.json().merchant.id).executeTakeFirstOrThrow();
    expect(audit.actor).toBe(`operator:${admin.id}`);

    expectErrorBody(await ctx.app.inject({ method: 'GET', url: '/api/v1/merchant', headers: { cookie: admin.cookie } }), 401, 'UNAUTHORIZED');
  });

  it("a merchant's user is no operator: their sid cookie on the back office is 403", async () => {
    const merchant = await ctx.createMerchant('Has people');
    const people = peopleOf(ctx.app, merchant.merchantId, clock, 'opsperson');
    const owner = await people.manager('OWNER');
    expectErrorBody(await ops.call('GET', '/merchants', people.as(owner)), 403, 'FORBIDDEN');
  });

  it('the role table: a VIEWER reads but cannot act, COMPLIANCE cannot create merchants, nobody proposes-and-applies a four-eyes action directly', async () => {
    const viewer = await ops.signedIn('VIEWER');
    expect((await ops.call('GET', '/merchants', ops.as(viewer))).statusCode).toBe(200);
    const refused = await ops.call('POST', '/merchants', ops.as(viewer), { name: 'Viewer' });
    expectErrorBody(refused, 403, 'FORBIDDEN');
    expect(refused.json().details).toEqual({ reason: 'ROLE_NOT_ALLOWED', permission: 'merchants.manage' });

    const compliance = await ops.signedIn('COMPLIANCE');
    expect((await ops.call('POST', '/merchants', ops.as(compliance), { name: 'Compliance' })).statusCode).toBe(403);

    const finance = await ops.signedIn('FINANCE');
    const direct = await ops.call('PUT', '/platform-fee-tiers/PAYIN', ops.as(finance), [{ minAmountBrl: 0, feePercent: 1 }]);
    expectErrorBody(direct, 403, 'FORBIDDEN');
    expect(direct.json().details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
  });

  it('an ADMIN operator changes roles and disables others (their sessions end), never themselves', async () => {
    const admin = await ops.signedIn('ADMIN');
    const other = await ops.signedIn('OPERATIONS');
    const self = await ops.call('PATCH', `/operators/${admin.id}`, ops.as(admin), { role: 'VIEWER' });
    expectErrorBody(self, 409, 'CONFLICT');

    const demoted = await ops.call('PATCH', `/operators/${other.id}`, ops.as(admin), { role: 'VIEWER' });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(demoted.json()).toMatchObject({ role: 'VIEWER' });
    expectErrorBody(await ops.call('GET', '/merchants', ops.as(other)), 401, 'UNAUTHORIZED');

    const disabled = await ops.call('PATCH', `/operators/${other.id}`, ops.as(admin), { disabled: true });
    expect(disabled.json()).toMatchObject({ disabled: true });
    expectErrorBody(await ops.signIn(other.email, PASSWORD, ops.codeFor(other.secret)), 403, 'FORBIDDEN');

    const audit = await ctx.database.db.selectFrom('admin_audit_log').select(['actor', 'details']).where('action', '=', 'operator.update').where('target_id', '=', other.id).orderBy('id').execute();
    expect(audit[0]).toMatchObject({ actor: `operator:${admin.id}`, details: { before: { role: 'OPERATIONS', disabled: false }, after: { role: 'VIEWER', disabled: false } } });
  });

  it('every back-office write has a row in the operator permission table (no write is open by omission)', () => {
    const doc = ctx.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/admin/'))
      .flatMap(([path, methods]) => Object.keys(methods).filter((m) => ['post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${path.replaceAll(/\{(\w+)\}/g, ':$1')}`))
      .filter((route) => route !== 'POST /api/v1/admin/auth/sessions');
    expect(writes.filter((route) => !(route in WRITE_PERMISSIONS))).toEqual([]);
  });

  it('the audit log is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = ctx.database.db;
    expect(Number((await sql<{ n: string }>`select count(*) as n from admin_audit_log`.execute(db)).rows[0]!.n)).toBeGreaterThan(0);
    await expect(sql`update admin_audit_log set actor = 'someone else'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from admin_audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate admin_audit_log`.execute(db)).rejects.toThrow(/append-only/);
  });
});
