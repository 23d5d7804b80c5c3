/**
 * Issue 38 (insider controls, decision 0031): a service account works only once a second operator
 * approved it. One ADMIN creates it and alone receives its token, but the token is refused
 * (403 SERVICE_ACCOUNT_PENDING) until another operator with operators.manage, never the proposer
 * nor the creator, approves SERVICE_ACCOUNT_ACTIVATE. The admin token never creates, proposes nor
 * approves one. One database for the whole file: the tests run in order, from a fresh install.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, TestClock, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { operatorsOf, type SignedInOperator } from '../../helpers/operators.ts';

const clock = new TestClock(new Date('2026-12-05T02:00:00Z'));
const adminToken = { authorization: `Bearer ${ADMIN_TOKEN}` };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('a service account works only once a second operator approved it', () => {
  let ctx: TestContext;
  let ops: ReturnType<typeof operatorsOf>;
  let alice: SignedInOperator;
  let bob: SignedInOperator;
  let account: { id: string; token: string };

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    ops = operatorsOf(ctx.app, clock, 'svc');
    // The bootstrap, through the API: the token invites Alice, Alice invites Bob; both enrol TOTP, so it is over.
    expect((await ops.call('POST', '/operators', adminToken, { email: 'alice@example.com', role: 'ADMIN' })).statusCode).toBe(202);
    alice = await ops.acceptInvitation('alice@example.com');
    expect((await ops.call('POST', '/operators', ops.as(alice), { email: 'bob@example.com', role: 'ADMIN' })).statusCode).toBe(202);
    bob = await ops.acceptInvitation('bob@example.com');
  });
  afterAll(async () => ctx?.close());

  const audit = (action: string, targetId: string) => ctx.database.db.selectFrom('admin_audit_log').select(['actor', 'details']).where('action', '=', action).where('target_id', '=', targetId).execute();
  const propose = (by: Record<string, string>, targetId: string, params?: Record<string, unknown>) =>
    ops.call('POST', '/approvals', by, { action: 'SERVICE_ACCOUNT_ACTIVATE', targetId, ...(params ? { params } : {}), reason: 'Nightly reconciliation job' });

  it('one ADMIN creates it PENDING and alone receives the token, which is refused until approved', async () => {
    const created = await ops.call('POST', '/service-accounts', ops.as(alice), { name: 'merchant-onboarding', role: 'OPERATIONS' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().serviceAccount).toMatchObject({ status: 'PENDING', activatedAt: null, approvalId: null, createdBy: `operator:${alice.id}` });
    account = { id: created.json().serviceAccount.id, token: created.json().token };

    for (const [method, url, payload] of [['GET', '/merchants', undefined], ['POST', '/merchants', { name: 'Made by a pending bot' }]] as const) {
      const refused = await ops.call(method, url, bearer(account.token), payload);
      expectErrorBody(refused, 403, 'FORBIDDEN');
      expect(refused.json().details).toEqual({ reason: 'SERVICE_ACCOUNT_PENDING' });
    }
    expect(await ctx.database.db.selectFrom('merchants').select('id').where('name', '=', 'Made by a pending bot').execute()).toEqual([]);
    // A revoked or unknown token stays a plain 401: pending is said only to the token's holder.
    expectErrorBody(await ops.call('GET', '/merchants', bearer(`svc_${'x'.repeat(43)}`)), 401, 'UNAUTHORIZED');
    const listed = (await ops.call('GET', '/service-accounts', ops.as(bob))).json();
    expect(listed).toEqual([expect.objectContaining({ id: account.id, status: 'PENDING' })]);
    expect(JSON.stringify(listed)).not.toContain(account.token);
  });

  it('the admin token neither creates, proposes nor approves one once the bootstrap is over', async () => {
    const created = await ops.call('POST', '/service-accounts', adminToken, { name: 'token-made', role: 'VIEWER' });
    expectErrorBody(created, 403, 'FORBIDDEN');
    expect(created.json().details).toEqual({ reason: 'ADMIN_TOKEN_BOOTSTRAP_OVER' });
    expect((await propose(adminToken, account.id)).json().details).toEqual({ reason: 'SESSION_REQUIRED' });
    const proposed = await propose(ops.as(alice), account.id);
    expect(proposed.statusCode, proposed.body).toBe(201);
    expect(proposed.json()).toMatchObject({ targetType: 'service_account', status: 'PENDING', proposedBy: { id: alice.id } });
    const byToken = await ops.call('POST', `/approvals/${proposed.json().id}/approve`, adminToken, {});
    expect(byToken.json().details).toEqual({ reason: 'SESSION_REQUIRED' });
    // Nor can the account approve itself.
    const bySelf = await ops.call('POST', `/approvals/${proposed.json().id}/approve`, bearer(account.token), {});
    expect(bySelf.json().details).toEqual({ reason: 'SERVICE_ACCOUNT_PENDING' });
  });

  it('its creator cannot approve it, whoever proposed; another ADMIN can, and the token then works for its role', async () => {
    const [pending] = (await ops.call('GET', '/approvals?status=PENDING', ops.as(bob))).json().data;
    const own = await ops.call('POST', `/approvals/${pending.id}/approve`, ops.as(alice), {});
    expectErrorBody(own, 403, 'FORBIDDEN');
    expect(own.json().details).toEqual({ reason: 'OWN_PROPOSAL' });

    // Bob proposes the activation of a second account Alice made: Alice still cannot approve it.
    const second = (await ops.call('POST', '/service-accounts', ops.as(alice), { name: 'kyc-sync', role: 'COMPLIANCE' })).json();
    const byBob = await propose(ops.as(bob), second.serviceAccount.id);
    expect(byBob.statusCode, byBob.body).toBe(201);
    const creator = await ops.call('POST', `/approvals/${byBob.json().id}/approve`, ops.as(alice), {});
    expectErrorBody(creator, 403, 'FORBIDDEN');
    expect(creator.json().details).toEqual({ reason: 'OWN_SERVICE_ACCOUNT' });
    expect((await ops.call('GET', `/approvals/${byBob.json().id}`, ops.as(alice))).json()).toMatchObject({ status: 'PENDING' });
    expect((await ops.call('GET', '/receivers', bearer(second.token))).json().details).toEqual({ reason: 'SERVICE_ACCOUNT_PENDING' });

    const approved = await ops.call('POST', `/approvals/${pending.id}/approve`, ops.as(bob), { note: 'checked with the integrations team' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'APPROVED', decidedBy: { id: bob.id }, result: { serviceAccount: { id: account.id, status: 'ACTIVE', approvalId: pending.id } } });
    expect(approved.body).not.toContain(account.token);
    expect((await audit('service_account.activate', account.id))[0]).toMatchObject({ actor: `operator:${bob.id}`, details: { approvalId: pending.id, createdBy: `operator:${alice.id}` } });

    const merchant = await ops.call('POST', '/merchants', bearer(account.token), { name: 'Onboarded by automation' });
    expect(merchant.statusCode, merchant.body).toBe(201);
    expect((await audit('merchant.create', merchant.json().merchant.id))[0]).toMatchObject({ actor: `service-account:${account.id}` });
    // Still only its role's one-person actions, and no vote.
    expect((await ops.call('POST', '/treasury/fundings', bearer(account.token), { currency: 'USDC', amount: '10', reference: 'x' })).json().details).toMatchObject({ reason: 'ROLE_NOT_ALLOWED' });
    expect((await ops.call('POST', `/approvals/${byBob.json().id}/approve`, bearer(account.token), {})).json().details).toEqual({ reason: 'SESSION_REQUIRED' });
  });

  it('proposals are checked: an active account, a bad target or params; revoking stays one ADMIN’s act and ends a pending approval', async () => {
    expect((await propose(ops.as(alice), account.id)).json().details).toEqual({ reason: 'ACTION_NOT_ALLOWED' });
    expectErrorBody(await propose(ops.as(alice), '00000000-0000-7000-8000-000000000099'), 404, 'NOT_FOUND');
    expectErrorBody(await propose(ops.as(alice), 'kyc-sync'), 400, 'VALIDATION_ERROR');
    const accounts = (await ops.call('GET', '/service-accounts', ops.as(alice))).json();
    const second = accounts.find((a: { name: string }) => a.name === 'kyc-sync');
    expectErrorBody(await propose(ops.as(alice), second.id, { role: 'ADMIN' }), 400, 'VALIDATION_ERROR');

    // Bob revokes the pending account alone; its approval can no longer activate it (it stays pending, to reject).
    expect((await ops.call('DELETE', `/service-accounts/${second.id}`, ops.as(bob))).json()).toMatchObject({ status: 'REVOKED' });
    const carol = await ops.signedIn('ADMIN');
    const [stale] = (await ops.call('GET', '/approvals?status=PENDING', ops.as(carol))).json().data;
    const late = await ops.call('POST', `/approvals/${stale.id}/approve`, ops.as(carol), {});
    expectErrorBody(late, 409, 'CONFLICT');
    expect(late.json().details).toEqual({ reason: 'ACTION_NOT_ALLOWED' });

    expect((await ops.call('DELETE', `/service-accounts/${account.id}`, ops.as(alice))).json()).toMatchObject({ status: 'REVOKED', activatedAt: expect.any(String) });
    expectErrorBody(await ops.call('GET', '/merchants', bearer(account.token)), 401, 'UNAUTHORIZED');
  });
});
