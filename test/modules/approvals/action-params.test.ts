/**
 * Issue 38 item 8: a four-eyes proposal's parameters are checked against their action's schema
 * when proposed (mutation testing showed the checks could be skipped unnoticed: every bad value
 * the tests sent was refused later, by the fee tiers' or the treasury's own rules). Here the
 * values only the schema refuses (an extra field, a reference with a space, an empty note, no
 * tiers at all), the order type a fee change names, and the decisions' own rules: a decided
 * proposal is decided once, the decider's role counts, and every decision is in the audit log.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectErrorBody } from '../../helpers/app.ts';
import { operatorsOf, type SignedInOperator } from '../../helpers/operators.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const t = ordersTest();
let ops: ReturnType<typeof operatorsOf>;
let finance: SignedInOperator;
let finance2: SignedInOperator;
let viewer: SignedInOperator;

const propose = (who: SignedInOperator, body: Json) => ops.call('POST', '/approvals', ops.as(who), body);
const tiers = [{ minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: 0.0042 }];
const auditOf = (approvalId: string) =>
  t.ctx.database.db.selectFrom('admin_audit_log').select(['action', 'actor', 'details', 'request_id']).where(({ eb, ref }) => eb(ref('details', '->>').key('approvalId' as never), '=', approvalId)).execute();

beforeAll(async () => {
  ops = operatorsOf(t.ctx.app, t.clock, 'params');
  finance = await ops.signedIn('FINANCE');
  finance2 = await ops.signedIn('FINANCE');
  viewer = await ops.signedIn('VIEWER');
  const funding = await t.ctx.app.inject({ method: 'POST', url: '/api/v1/admin/treasury/fundings', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { currency: 'USDC', amount: '1000', reference: 'params-funding' } });
  expect(funding.statusCode, funding.body).toBe(201);
});

describe("a proposal's parameters", () => {
  it('PLATFORM_FEE_CHANGE takes exactly {tiers} and an order type as its target', async () => {
    const bad: Array<[string, unknown]> = [
      ['PAYIN', { tiers, extra: 'x' }],
      ['PAYIN', {}],
      ['PAYIN', { tiers: 'all of them' }],
      ['PAYINS', { tiers }],
    ];
    for (const [targetId, params] of bad) {
      const refused = await propose(finance, { action: 'PLATFORM_FEE_CHANGE', targetId, params, reason: 'a bad proposal' });
      const body = expectErrorBody(refused, 400, 'VALIDATION_ERROR');
      // The operator is told what the target or the params must be, in the message and the field's detail.
      const [field, detail, message] =
        targetId === 'PAYINS'
          ? ['body.targetId', 'must be PAYIN or PAYOUT', 'targetId of PLATFORM_FEE_CHANGE is the order type, PAYIN or PAYOUT']
          : ['body.params', 'must be {tiers: [...]} as PUT /admin/platform-fee-tiers/{orderType} takes', 'params must be {tiers: [...]}, the body of PUT /admin/platform-fee-tiers/{orderType}'];
      expect(body.details, JSON.stringify({ targetId, params })).toEqual({ [field]: detail });
      expect(body.message).toBe(message);
    }
    const good = await propose(finance, { action: 'PLATFORM_FEE_CHANGE', targetId: 'PAYOUT', params: { tiers }, reason: 'a good proposal' });
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json()).toMatchObject({ targetType: 'platform_fee_tiers', targetId: 'PAYOUT', params: { tiers }, merchantId: null });
    // What it would change: the order type's schedule as it stands.
    const [proposedEntry] = await auditOf(good.json().id);
    expect(proposedEntry!.details).toMatchObject({ before: JSON.parse(JSON.stringify(await t.ctx.app.services.feeTiers.listPlatformTiers('PAYOUT'))) });
    expect((proposedEntry!.details as { before: unknown[] }).before.length).toBeGreaterThan(0);
  });

  it('TREASURY_WITHDRAWAL takes exactly {amount, reference, note?, wallet?} as a funding does', async () => {
    const bad = [
      { amount: '10', reference: 'w-extra', extra: true },
      { amount: '10', reference: 'has a space' },
      { amount: '10', reference: 'w-empty-note', note: '' },
      { amount: '10' },
      { amount: '10', reference: 'w-currency', currency: 'SOL' },
      { amount: '10', reference: 'w-wallet', wallet: 0 },
    ];
    for (const params of bad) {
      const refused = await propose(finance, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params, reason: 'a bad withdrawal' });
      const body = expectErrorBody(refused, 400, 'VALIDATION_ERROR');
      expect(body.details, JSON.stringify(params)).toEqual({ 'body.params': 'must be {amount, reference, note?, wallet?}' });
      expect(body.message).toBe('params must be {amount, reference, note?, wallet?}, as POST /admin/treasury/fundings takes');
    }
    const withNote = await propose(finance, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: '1.5', reference: 'w-noted', note: 'to cold storage' }, reason: 'rebalance' });
    expect(withNote.statusCode, withNote.body).toBe(201);
    const approved = await ops.call('POST', `/approvals/${withNote.json().id}/approve`, ops.as(finance2), { note: 'checked the transfer' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'APPROVED', decisionReason: 'checked the transfer', result: { withdrawal: { reference: 'w-noted', currency: 'USDC' } } });
    const withoutNote = await propose(finance, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: '1', reference: 'w-plain' }, reason: 'rebalance' });
    const plain = await ops.call('POST', `/approvals/${withoutNote.json().id}/approve`, ops.as(finance2), {});
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().decisionReason).toBeNull();
    // The approval's audit entry: who approved whose proposal, with what note, and what it did.
    const approvedEntry = (await auditOf(withNote.json().id)).find((entry) => entry.action === 'approval.approve');
    expect(approvedEntry).toMatchObject({ actor: `operator:${finance2.id}`, request_id: expect.any(String) });
    expect(approvedEntry!.details).toMatchObject({ merchantId: null, approvalId: withNote.json().id, action: 'TREASURY_WITHDRAWAL', proposedBy: finance.id, note: 'checked the transfer', after: { withdrawal: { reference: 'w-noted' } } });
    expect((await auditOf(withoutNote.json().id)).find((entry) => entry.action === 'approval.approve')!.details).toMatchObject({ note: null });
    const notes = await t.ctx.database.db.selectFrom('treasury_withdrawals').select(['reference', 'note']).where('reference', 'in', ['w-noted', 'w-plain']).orderBy('reference').execute();
    expect(notes).toEqual([
      { reference: 'w-noted', note: 'to cold storage' },
      { reference: 'w-plain', note: null },
    ]);
  });
});

describe("a proposal's decision", () => {
  it('names its target by type, refuses a target that is not an id, and records what it would change', async () => {
    const notAnId = expectErrorBody(await propose(finance, { action: 'PAYOUT_RETRY', targetId: 'order-1', reason: 'not an id' }), 400, 'VALIDATION_ERROR');
    expect(notAnId.details).toEqual({ 'body.targetId': 'must be a UUID' });
    expect(notAnId.message).toBe('targetId of this action is an id (a UUID)');

    const withdrawal = await propose(finance, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: '3', reference: 'w-before' }, reason: 'the before state' });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
    expect(withdrawal.json()).toMatchObject({ targetType: 'treasury', targetId: 'USDC' });
    const [withdrawalProposed] = await auditOf(withdrawal.json().id);
    expect(withdrawalProposed!.details).toMatchObject({ before: { ledgerBalance: expect.anything() } });
    // One pending proposal per target: this one is withdrawn from the way of the next test's.
    expect((await ops.call('POST', `/approvals/${withdrawal.json().id}/reject`, ops.as(finance2), { reason: 'only the before state' })).statusCode).toBe(200);

    const operations = await ops.signedIn('OPERATIONS');
    const merchant = await t.merchant('Disabled Store');
    expect((await ops.call('POST', `/merchants/${merchant.merchantId}/disable`, ops.as(operations))).statusCode).toBe(200);
    const enable = await ops.call('POST', '/approvals', ops.as(operations), { action: 'MERCHANT_ENABLE', targetId: merchant.merchantId, reason: 'enable it again' });
    expect(enable.statusCode, enable.body).toBe(201);
    expect(enable.json()).toMatchObject({ targetType: 'merchant', targetId: merchant.merchantId });
    const [enableProposed] = await auditOf(enable.json().id);
    expect(enableProposed!.details).toMatchObject({ before: { status: 'DISABLED' } });
  });

  it('is made once, by another operator whose role holds the permission, and each step is audited', async () => {
    const proposed = await propose(finance, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: '2', reference: 'w-decided' }, reason: 'to be rejected' });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const id = proposed.json().id;
    const second = expectErrorBody(await propose(finance, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: '1', reference: 'w-second' }, reason: 'a second one' }), 409, 'CONFLICT');
    expect(second).toMatchObject({ message: 'A TREASURY_WITHDRAWAL proposal for USDC is already pending', details: { reason: 'PROPOSAL_PENDING' } });

    const byViewer = expectErrorBody(await ops.call('POST', `/approvals/${id}/reject`, ops.as(viewer), { reason: 'a viewer' }), 403, 'FORBIDDEN');
    expect(byViewer.details).toEqual({ reason: 'ROLE_NOT_ALLOWED', permission: 'treasury.manage' });
    expect(byViewer.message).toBe('An operator with role VIEWER cannot propose or decide TREASURY_WITHDRAWAL (needs treasury.manage)');
    expectErrorBody(await ops.call('POST', `/approvals/${id}/approve`, ops.as(viewer), {}), 403, 'FORBIDDEN');
    const own = expectErrorBody(await ops.call('POST', `/approvals/${id}/reject`, ops.as(finance), { reason: 'my own' }), 403, 'FORBIDDEN');
    expect(own.details).toEqual({ reason: 'OWN_PROPOSAL' });
    expect(own.message).toBe('Nobody approves or rejects their own proposal: another operator must');

    const rejected = await ops.call('POST', `/approvals/${id}/reject`, ops.as(finance2), { reason: 'not needed' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ status: 'REJECTED', decidedBy: { id: finance2.id }, decisionReason: 'not needed', result: null });
    expect(expectErrorBody(await ops.call('POST', `/approvals/${id}/approve`, ops.as(finance2), {}), 409, 'CONFLICT').message).toBe('This proposal is already REJECTED');
    expectErrorBody(await ops.call('POST', `/approvals/${id}/reject`, ops.as(finance2), { reason: 'twice' }), 409, 'CONFLICT');
    expect(expectErrorBody(await ops.call('POST', '/approvals/00000000-0000-7000-8000-000000000000/approve', ops.as(finance2), {}), 404, 'NOT_FOUND').message).toBe('Approval not found');
    expect(expectErrorBody(await ops.call('GET', '/approvals/00000000-0000-7000-8000-000000000000', ops.as(finance2)), 404, 'NOT_FOUND').message).toBe('Approval not found');

    const entries = await auditOf(id);
    expect(entries.every((e) => typeof e.request_id === 'string')).toBe(true);
    expect(entries.map((e) => [e.action, e.actor])).toEqual([
      ['approval.propose', `operator:${finance.id}`],
      ['approval.reject', `operator:${finance2.id}`],
    ]);
    expect(entries[1]!.details).toMatchObject({ approvalId: id, action: 'TREASURY_WITHDRAWAL', proposedBy: finance.id, reason: 'not needed' });
    expect(entries[0]!.details).toMatchObject({ action: 'TREASURY_WITHDRAWAL', params: { amount: '2', reference: 'w-decided' }, reason: 'to be rejected' });
  });
});
