/**
 * Issue 38 items 1 and 2: no operator is made or raised by one person once the bootstrap is over,
 * nobody's password is ever seen by another, and the admin token steps aside: refused on every
 * four-eyes route once an operator exists, and on operator management once two have enrolled
 * TOTP. Two separate operators still approve; automation gets service accounts, which act by
 * their role under their own name and have no four-eyes vote. One database for the whole file:
 * the tests run in order, from a fresh install.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, TestClock, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { operatorsOf, type SignedInOperator } from '../../helpers/operators.ts';

const clock = new TestClock(new Date('2026-12-05T01:00:00Z'));
const adminToken = { authorization: `Bearer ${ADMIN_TOKEN}` };
type Signed = SignedInOperator & { secret: string };

describe('operators are made and raised by two people; the admin token bootstraps, then steps aside', () => {
  let ctx: TestContext;
  let ops: ReturnType<typeof operatorsOf>;
  let alice: Signed;
  let bob: Signed;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    ops = operatorsOf(ctx.app, clock, 'two');
  });
  afterAll(async () => ctx?.close());

  const audit = (action: string, targetId: string) => ctx.database.db.selectFrom('admin_audit_log').select(['actor', 'details']).where('action', '=', action).where('target_id', '=', targetId).execute();

  it('once an operator exists, the admin token is refused on every four-eyes route (the platform fee, enabling a merchant)', async () => {
    const merchant = await ctx.createMerchant('Disabled by ops');
    expect((await ops.call('POST', `/merchants/${merchant.merchantId}/disable`, adminToken, {})).statusCode).toBe(200);
    // A fresh install (no operator yet): the token still configures.
    expect((await ops.call('PUT', '/platform-fee-tiers/PAYIN', adminToken, [{ minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: 0.01 }])).statusCode).toBe(200);

    const invited = await ops.call('POST', '/operators', adminToken, { email: 'alice@example.com', role: 'ADMIN' });
    expect(invited.statusCode, invited.body).toBe(202);
    alice = await ops.acceptInvitation('alice@example.com');

    const fee = await ops.call('PUT', '/platform-fee-tiers/PAYOUT', adminToken, [{ minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: 0 }]);
    expectErrorBody(fee, 403, 'FORBIDDEN');
    expect(fee.json().details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
    const enable = await ops.call('POST', `/merchants/${merchant.merchantId}/enable`, adminToken, {});
    expectErrorBody(enable, 403, 'FORBIDDEN');
    expect(enable.json().details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
    expect((await ops.call('GET', `/merchants/${merchant.merchantId}`, adminToken)).json()).toMatchObject({ status: 'DISABLED' });
  });

  it('during the bootstrap one ADMIN invites the second operator; nobody but the invitee sees a credential', async () => {
    const invited = await ops.call('POST', '/operators', ops.as(alice), { email: 'bob@example.com', role: 'ADMIN' });
    expect(invited.statusCode, invited.body).toBe(202);
    expect(invited.body).not.toMatch(/password|token/i);
    bob = await ops.acceptInvitation('bob@example.com');
    expect((await audit('operator.invite', invited.json().id))[0]).toMatchObject({ actor: `operator:${alice.id}` });
  });

  it('after two have enrolled TOTP, neither the admin token nor one ADMIN alone makes an operator (no self-made second account)', async () => {
    const byToken = await ops.call('POST', '/operators', adminToken, { email: 'token-made@example.com', role: 'ADMIN' });
    expectErrorBody(byToken, 403, 'FORBIDDEN');
    expect(byToken.json().details).toEqual({ reason: 'ADMIN_TOKEN_BOOTSTRAP_OVER' });
    // Nor does the token take personal data out any more: an export is made by someone with a name.
    for (const url of ['/reports/operations?month=2026-11', '/audit-log/export?action=merchant.create']) {
      const exported = await ops.call('GET', url, adminToken);
      expectErrorBody(exported, 403, 'FORBIDDEN');
      expect(exported.json().details).toEqual({ reason: 'ADMIN_TOKEN_BOOTSTRAP_OVER' });
      expect((await ops.call('GET', url, ops.as(alice))).statusCode).toBe(200);
    }
    const alone = await ops.call('POST', '/operators', ops.as(alice), { email: 'alice.second@example.com', role: 'ADMIN' });
    expectErrorBody(alone, 403, 'FORBIDDEN');
    expect(alone.json().details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
    const accounts = await ctx.database.db.selectFrom('operators').select('email').execute();
    expect(accounts.map((row) => row.email).sort()).toEqual(['alice@example.com', 'bob@example.com']);
    expect(await ctx.database.db.selectFrom('operator_invitations').select('email').where('email', 'in', ['token-made@example.com', 'alice.second@example.com']).execute()).toEqual([]);
  });

  it('OPERATOR_CREATE: proposed by one, refused to the proposer, approved by another; the link goes to the new operator only', async () => {
    const proposed = await ops.call('POST', '/approvals', ops.as(alice), { action: 'OPERATOR_CREATE', targetId: 'Carol@Example.com', params: { role: 'VIEWER' }, reason: 'New analyst joins' });
    expect(proposed.statusCode, proposed.body).toBe(201);
    expect(proposed.json().targetId).toBe('carol@example.com');
    const again = await ops.call('POST', '/approvals', ops.as(bob), { action: 'OPERATOR_CREATE', targetId: 'CAROL@example.com', params: { role: 'ADMIN' }, reason: 'the same person, another spelling' });
    expect(again.json().details).toEqual({ reason: 'PROPOSAL_PENDING' });
    expectErrorBody(await ops.call('POST', '/approvals', ops.as(alice), { action: 'OPERATOR_CREATE', targetId: 'dave@example.com', params: { role: 'ROOT' }, reason: 'bad role' }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await ops.call('POST', '/approvals', ops.as(alice), { action: 'OPERATOR_CREATE', targetId: 'dave@example.com', params: { role: 'VIEWER', password: 'x' }, reason: 'extra param' }), 400, 'VALIDATION_ERROR');
    const own = await ops.call('POST', `/approvals/${proposed.json().id}/approve`, ops.as(alice), {});
    expect(own.json().details).toEqual({ reason: 'OWN_PROPOSAL' });
    expectErrorBody(await ops.call('POST', `/approvals/${proposed.json().id}/approve`, adminToken, {}), 403, 'FORBIDDEN');

    const approved = await ops.call('POST', `/approvals/${proposed.json().id}/approve`, ops.as(bob), {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'APPROVED', result: { invitation: { email: 'carol@example.com', role: 'VIEWER', approvalId: proposed.json().id } } });
    expect(approved.body).not.toMatch(/password|accept-invitation/i);
    const carol = await ops.acceptInvitation('carol@example.com');
    expect((await ops.call('GET', '/auth/sessions/current', ops.as(carol))).json().operator).toMatchObject({ role: 'VIEWER' });
  });

  it("raising a role or enabling takes two; lowering and disabling stay one ADMIN's act; a demoted operator cannot vote their own raise", async () => {
    const carol = (await ops.call('GET', '/operators', ops.as(alice))).json().find((o: { email: string }) => o.email === 'carol@example.com');
    const raise = await ops.call('PATCH', `/operators/${carol.id}`, ops.as(alice), { role: 'ADMIN' });
    expectErrorBody(raise, 403, 'FORBIDDEN');
    expect(raise.json().details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
    const byToken = await ops.call('PATCH', `/operators/${carol.id}`, adminToken, { role: 'ADMIN' });
    expect(byToken.json().details).toEqual({ reason: 'ADMIN_TOKEN_BOOTSTRAP_OVER' });

    const proposed = await ops.call('POST', '/approvals', ops.as(alice), { action: 'OPERATOR_ROLE_CHANGE', targetId: carol.id, params: { role: 'FINANCE' }, reason: 'Moves to treasury' });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const approved = await ops.call('POST', `/approvals/${proposed.json().id}/approve`, ops.as(bob), { note: 'confirmed with HR' });
    expect(approved.json()).toMatchObject({ status: 'APPROVED', result: { operator: { id: carol.id, role: 'FINANCE' } } });

    // Lowering (FINANCE to VIEWER gives nothing new) and disabling: one ADMIN, at once.
    expect((await ops.call('PATCH', `/operators/${carol.id}`, ops.as(alice), { role: 'VIEWER' })).json()).toMatchObject({ role: 'VIEWER' });
    expect((await ops.call('PATCH', `/operators/${carol.id}`, ops.as(alice), { disabled: true })).json()).toMatchObject({ disabled: true });
    const enable = await ops.call('PATCH', `/operators/${carol.id}`, ops.as(alice), { disabled: false });
    expect(enable.json().details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
    const enabling = await ops.call('POST', '/approvals', ops.as(alice), { action: 'OPERATOR_ENABLE', targetId: carol.id, reason: 'Back from leave' });
    expect((await ops.call('POST', `/approvals/${enabling.json().id}/approve`, ops.as(bob), {})).json()).toMatchObject({ status: 'APPROVED', result: { operator: { disabled: false } } });

    // Demoted, Bob cannot vote his own way back up: a raise is decided by someone with operators.manage other than its target.
    await ops.call('PATCH', `/operators/${bob.id}`, ops.as(alice), { role: 'OPERATIONS' });
    bob = { ...bob, ...ops.sessionOf(await ops.signIn(bob.email, undefined, ops.codeFor(bob.secret))) };
    const bobUp = await ops.call('POST', '/approvals', ops.as(alice), { action: 'OPERATOR_ROLE_CHANGE', targetId: bob.id, params: { role: 'ADMIN' }, reason: 'Bob back to ADMIN' });
    expect(bobUp.statusCode, bobUp.body).toBe(201);
    const selfVote = await ops.call('POST', `/approvals/${bobUp.json().id}/approve`, ops.as(bob), {});
    expectErrorBody(selfVote, 403, 'FORBIDDEN');
    expect(selfVote.json().details).toMatchObject({ reason: 'ROLE_NOT_ALLOWED' });
  });

  it('two separate operators still approve a platform fee change', async () => {
    // Bob is OPERATIONS now: make a FINANCE pair through the service fixture (already past the bootstrap).
    const finance = await ops.signedIn('FINANCE');
    const second = await ops.signedIn('FINANCE');
    const tiers = [{ minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: 0.005 }];
    const proposed = await ops.call('POST', '/approvals', ops.as(finance), { action: 'PLATFORM_FEE_CHANGE', targetId: 'PAYOUT', params: { tiers }, reason: 'New pricing' });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const approved = await ops.call('POST', `/approvals/${proposed.json().id}/approve`, ops.as(second), {});
    expect(approved.json()).toMatchObject({ status: 'APPROVED', decidedBy: { id: second.id } });
  });

  it('a service account, once a second ADMIN approved it, runs its role’s actions under its own name, cannot vote nor manage operators, and is revoked at once', async () => {
    expectErrorBody(await ops.call('POST', '/service-accounts', adminToken, { name: 'nightly', role: 'OPERATIONS' }), 403, 'FORBIDDEN');
    expectErrorBody(await ops.call('POST', '/service-accounts', ops.as(alice), { name: 'root-bot', role: 'ADMIN' }), 400, 'VALIDATION_ERROR');
    const created = await ops.call('POST', '/service-accounts', ops.as(alice), { name: 'merchant-onboarding', role: 'OPERATIONS' });
    expect(created.statusCode, created.body).toBe(201);
    const { serviceAccount, token } = created.json();
    expect(token).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await ctx.database.db.selectFrom('service_accounts').selectAll().execute())).not.toContain(token);
    const svc = { authorization: `Bearer ${token}` };
    // It works once another ADMIN approved it (decision 0031; service-accounts-approved.test.ts).
    expect((await ops.call('GET', '/merchants', svc)).json().details).toEqual({ reason: 'SERVICE_ACCOUNT_PENDING' });
    const activation = await ops.call('POST', '/approvals', ops.as(alice), { action: 'SERVICE_ACCOUNT_ACTIVATE', targetId: serviceAccount.id, reason: 'Merchant onboarding job' });
    const approver = await ops.signedIn('ADMIN');
    expect((await ops.call('POST', `/approvals/${activation.json().id}/approve`, ops.as(approver), {})).json()).toMatchObject({ status: 'APPROVED' });

    const merchant = await ops.call('POST', '/merchants', svc, { name: 'Onboarded by automation' });
    expect(merchant.statusCode, merchant.body).toBe(201);
    expect((await audit('merchant.create', merchant.json().merchant.id))[0]).toMatchObject({ actor: `service-account:${serviceAccount.id}` });

    expect((await ops.call('POST', '/treasury/fundings', svc, { currency: 'USDC', amount: '10', reference: 'x' })).json().details).toMatchObject({ reason: 'ROLE_NOT_ALLOWED' });
    expect((await ops.call('POST', '/operators', svc, { email: 'bot-made@example.com', role: 'VIEWER' })).json().details).toMatchObject({ reason: 'ROLE_NOT_ALLOWED' });
    expect((await ops.call('POST', `/merchants/${merchant.json().merchant.id}/enable`, svc, {})).json().details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
    const pending = await ops.call('POST', '/approvals', ops.as(alice), { action: 'OPERATOR_CREATE', targetId: 'erin@example.com', params: { role: 'VIEWER' }, reason: 'New analyst' });
    const vote = await ops.call('POST', `/approvals/${pending.json().id}/approve`, svc, {});
    expectErrorBody(vote, 403, 'FORBIDDEN');
    expect(vote.json().details).toEqual({ reason: 'SESSION_REQUIRED' });
    expectErrorBody(await ops.call('POST', '/approvals', svc, { action: 'MERCHANT_ENABLE', targetId: merchant.json().merchant.id, reason: 'bot proposes' }), 403, 'FORBIDDEN');

    const revoked = await ops.call('DELETE', `/service-accounts/${serviceAccount.id}`, ops.as(alice));
    expect(revoked.json()).toMatchObject({ revokedAt: expect.any(String) });
    expectErrorBody(await ops.call('GET', '/merchants', svc), 401, 'UNAUTHORIZED');
  });
});
