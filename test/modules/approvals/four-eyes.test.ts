/**
 * Four-eyes (issue 29 item 2): a stuck PAYIN (its transfer failed, then its refund) is refunded
 * only when a second operator approves the first one's proposal; the refund then runs as any
 * refund does (REFUNDED, order.refunded, the ledger balanced and nothing left in transit). Nobody
 * decides their own proposal, a VIEWER proposes nothing, the admin token is nobody, and the
 * other four-eyes actions (enabling a merchant, a platform fee change) run only when approved.
 */
import { totalOf } from '../../../src/adapters/chain/treasury-port.ts';
import { sql } from 'kysely';
import { decimal } from '../../../src/lib/money.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectErrorBody } from '../../helpers/app.ts';
import { operatorsOf, type SignedInOperator } from '../../helpers/operators.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const t = ordersTest();
let ops: ReturnType<typeof operatorsOf>;
let proposer: SignedInOperator;
let approver: SignedInOperator;
let viewer: SignedInOperator;

/** A PAYIN whose transfer failed and whose refund failed too: FAILED, the customer's PIX held. */
async function stuckPayin(): Promise<{ order: Json; merchant: Awaited<ReturnType<typeof t.merchantWithReceiver>>['merchant'] }> {
  const { merchant, receiver } = await t.merchantWithReceiver();
  const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 25 });
  for (const step of ['CHAIN_TRANSFER', 'PIX_REFUND']) await t.call('POST', `/sandbox/orders/${order.id}/failure-injections`, merchant, { step });
  await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
  await t.drive();
  expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('FAILED');
  return { order, merchant };
}

const propose = (who: SignedInOperator, body: Json) => ops.call('POST', '/approvals', ops.as(who), body);

beforeAll(async () => {
  ops = operatorsOf(t.ctx.app, t.clock, 'foureyes');
  proposer = await ops.signedIn('OPERATIONS');
  approver = await ops.signedIn('FINANCE');
  viewer = await ops.signedIn('VIEWER');
});

describe('a stuck PAYIN refunded through four-eyes', () => {
  it('is proposed by one operator, refused to its proposer, approved by another: REFUNDED, order.refunded, the ledger balanced', async () => {
    const { order, merchant } = await stuckPayin();
    const stuck = (await ops.call('GET', '/orders/stuck', ops.as(proposer))).json().data.find((row: Json) => row.id === order.id);
    expect(stuck).toMatchObject({ stuckReason: 'FAILED_WITH_MONEY_HELD', allowedActions: ['REFUND'] });

    expectErrorBody(await ops.call('POST', `/orders/${order.id}/mark-failed`, ops.as(proposer), { reason: 'not in transit' }), 409, 'CONFLICT');
    expectErrorBody(await propose(viewer, { action: 'ORDER_REFUND', targetId: order.id, reason: 'a viewer tries' }), 403, 'FORBIDDEN');

    const proposed = await propose(proposer, { action: 'ORDER_REFUND', targetId: order.id, reason: 'Refund failed at the PSP; retry it' });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const approval = proposed.json();
    expect(approval).toMatchObject({ status: 'PENDING', targetType: 'order', merchantId: merchant.merchantId, proposedBy: { id: proposer.id, email: proposer.email }, decidedBy: null });
    expectErrorBody(await propose(approver, { action: 'ORDER_REFUND', targetId: order.id, reason: 'the same again' }), 409, 'CONFLICT');

    // The proposal alone moves nothing.
    t.clock.advance(1000);
    await t.drive();
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('FAILED');

    const own = await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(proposer), {});
    expectErrorBody(own, 403, 'FORBIDDEN');
    expect(own.json().details).toEqual({ reason: 'OWN_PROPOSAL' });
    expectErrorBody(await ops.call('POST', `/approvals/${approval.id}/reject`, ops.as(proposer), { reason: 'changed my mind' }), 403, 'FORBIDDEN');
    expectErrorBody(await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(viewer), {}), 403, 'FORBIDDEN');
    expectErrorBody(await t.ctx.app.inject({ method: 'POST', url: `/api/v1/admin/approvals/${approval.id}/approve`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: {} }), 403, 'FORBIDDEN');

    const approved = await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(approver), { note: 'PSP statement checked' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'APPROVED', decidedBy: { id: approver.id }, decisionReason: 'PSP statement checked', result: { order: { id: order.id, status: 'REFUNDING' } } });
    expectErrorBody(await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(viewer), {}), 409, 'CONFLICT');

    await t.drive();
    const refunded = (await t.call('GET', `/orders/${order.id}`, merchant)).json();
    expect(refunded.status).toBe('REFUNDED');
    // One movement per kind (the failed refund's row now holds the confirmed one); the failure stays in the events.
    expect(refunded.transactions.map((tx: Json) => [tx.type, tx.status])).toEqual([
      ['PIX_IN', 'CONFIRMED'],
      ['CHAIN_TRANSFER', 'FAILED'],
      ['PIX_REFUND', 'CONFIRMED'],
    ]);
    const events = (await t.events(order.id)).map((e) => e.event_type);
    expect(events.slice(-3)).toEqual(['order.failed', 'order.refunding', 'order.refunded']);

    // Every currency's postings sum to zero, and nothing of this order is left in transit.
    const db = t.ctx.database.db;
    const unbalanced = await sql<{ currency: string }>`select currency from ledger_postings group by currency having sum(amount) <> 0`.execute(db);
    expect(unbalanced.rows).toEqual([]);
    const inTransit = await sql<{ total: string }>`
      select coalesce(sum(p.amount), 0)::text as total from ledger_postings p
      join ledger_entries e on e.id = p.entry_id join ledger_accounts a on a.id = p.account_id
      where e.reference_type = 'order' and e.reference_id = ${order.id} and a.code = 'customer_funds_in_transit'`.execute(db);
    expect(Number(inTransit.rows[0]!.total)).toBe(0);

    const audit = await db.selectFrom('admin_audit_log').select(['actor', 'action', 'details']).where('target_id', '=', order.id).orderBy('id').execute();
    expect(audit.map((row) => [row.action, row.actor])).toEqual([
      ['approval.propose', `operator:${proposer.id}`],
      ['order.refund', `operator:${approver.id}`],
      ['approval.approve', `operator:${approver.id}`],
    ]);
    expect(audit[1]!.details).toMatchObject({ approvalId: approval.id, before: { status: 'FAILED' }, after: { status: 'REFUNDING' } });
  });

  it('a rejected proposal runs nothing, and a new one may follow', async () => {
    const { order, merchant } = await stuckPayin();
    const approval = (await propose(proposer, { action: 'ORDER_REFUND', targetId: order.id, reason: 'try again' })).json();
    const rejected = await ops.call('POST', `/approvals/${approval.id}/reject`, ops.as(approver), { reason: 'the customer asked for tokens' });
    expect(rejected.json()).toMatchObject({ status: 'REJECTED', decisionReason: 'the customer asked for tokens', result: null });
    await t.drive();
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('FAILED');
    expect((await propose(proposer, { action: 'ORDER_REFUND', targetId: order.id, reason: 'now with a new account' })).statusCode).toBe(201);
  });

  it('the database itself refuses a decision by the proposer', async () => {
    const { order } = await stuckPayin();
    const approval = (await propose(proposer, { action: 'ORDER_REFUND', targetId: order.id, reason: 'db check' })).json();
    await expect(sql`update approvals set status = 'APPROVED', decided_by = proposed_by, decided_at = now() where id = ${approval.id}`.execute(t.ctx.database.db)).rejects.toThrow(/approvals_four_eyes/);
  });
});

describe('a refused payout retried through four-eyes', () => {
  it("is FAILED holding the tokens, proposed by one operator, approved by another: its PIX is sent again under a new key and it COMPLETES, the ledger balanced", async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 4, sourceToken: 'USDC' });
    await t.call('POST', `/sandbox/orders/${order.id}/failure-injections`, merchant, { step: 'PIX_PAYOUT' });
    await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {});
    await t.drive();
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('FAILED');
    const stuck = (await ops.call('GET', '/orders/stuck', ops.as(proposer))).json().data.find((row: Json) => row.id === order.id);
    expect(stuck).toMatchObject({ stuckReason: 'FAILED_WITH_MONEY_HELD', allowedActions: ['RETRY_PAYOUT'], moneyHeld: true });
    expectErrorBody(await propose(proposer, { action: 'ORDER_REFUND', targetId: order.id, reason: 'not a PAYIN' }), 409, 'CONFLICT');

    const approval = (await propose(proposer, { action: 'PAYOUT_RETRY', targetId: order.id, reason: 'The receiving bank was down; it is back' })).json();
    expect(approval).toMatchObject({ status: 'PENDING', action: 'PAYOUT_RETRY', targetType: 'order', targetId: order.id, merchantId: merchant.merchantId });
    expectErrorBody(await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(proposer), {}), 403, 'FORBIDDEN');
    const approved = await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(approver), {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().result).toMatchObject({ order: { status: 'PIX_SENDING' } });

    await t.drive();
    const done = (await t.call('GET', `/orders/${order.id}`, merchant)).json();
    expect(done.status).toBe('COMPLETED');
    const events = (await t.events(order.id)).map((e) => e.event_type);
    const afterFailure = events.slice(events.indexOf('order.failed'));
    expect(afterFailure[1]).toBe('order.processing');
    expect(afterFailure.at(-1)).toBe('order.completed');
    const keys = await t.ctx.database.db.selectFrom('sandbox_pix_payouts').select('idempotency_key').where('idempotency_key', 'like', `${order.id}%`).orderBy('idempotency_key').execute();
    expect(keys.map((row) => row.idempotency_key)).toEqual([order.id, `${order.id}R1`]);
    const unbalanced = await sql<{ currency: string }>`select currency from ledger_postings group by currency having sum(amount) <> 0`.execute(t.ctx.database.db);
    expect(unbalanced.rows).toEqual([]);
  });
});

describe('the other four-eyes actions', () => {
  it("a disabled merchant is enabled only by another operator's approval; the direct route is refused to a session", async () => {
    const admin = await ops.signedIn('ADMIN');
    const { merchant } = await t.merchantWithReceiver();
    expect((await ops.call('POST', `/merchants/${merchant.merchantId}/disable`, ops.as(proposer))).statusCode).toBe(200);
    const direct = await ops.call('POST', `/merchants/${merchant.merchantId}/enable`, ops.as(admin));
    expectErrorBody(direct, 403, 'FORBIDDEN');
    expect(direct.json().details).toEqual({ reason: 'FOUR_EYES_REQUIRED' });
    const approval = (await propose(proposer, { action: 'MERCHANT_ENABLE', targetId: merchant.merchantId, reason: 'KYB renewed' })).json();
    expect((await ops.call('GET', `/merchants/${merchant.merchantId}`, ops.as(admin))).json().status).toBe('DISABLED');
    const approved = await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(admin), {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().result).toMatchObject({ merchant: { id: merchant.merchantId, status: 'ACTIVE' } });
    expect((await ops.call('GET', `/merchants/${merchant.merchantId}`, ops.as(admin))).json().status).toBe('ACTIVE');
    const again = expectErrorBody(await propose(proposer, { action: 'MERCHANT_ENABLE', targetId: merchant.merchantId, reason: 'again' }), 409, 'CONFLICT');
    expect(again.message).toBe('The merchant is not disabled');
    // A target that is no id is the caller's mistake (400), for every action on an order or a merchant.
    for (const action of ['ORDER_REFUND', 'PAYOUT_RETRY', 'MERCHANT_ENABLE']) {
      expectErrorBody(await propose(admin, { action, targetId: 'not-an-id', reason: 'a typo' }), 400, 'VALIDATION_ERROR');
    }
  });

  it('a platform fee change is checked when proposed and applied when approved', async () => {
    const finance2 = await ops.signedIn('FINANCE');
    const bad = await propose(approver, { action: 'PLATFORM_FEE_CHANGE', targetId: 'PAYIN', params: { tiers: [{ nope: 1 }] }, reason: 'bad tiers' });
    expectErrorBody(bad, 400, 'VALIDATION_ERROR');
    const before = (await ops.call('GET', '/platform-fee-tiers', ops.as(approver))).json();
    const tiers = [{ minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: 0.0042 }];
    const proposed = await propose(approver, { action: 'PLATFORM_FEE_CHANGE', targetId: 'PAYIN', params: { tiers }, reason: 'new PIX costs' });
    expect(proposed.statusCode, proposed.body).toBe(201);
    expect((await ops.call('GET', '/platform-fee-tiers', ops.as(approver))).json()).toEqual(before);
    const approved = await ops.call('POST', `/approvals/${proposed.json().id}/approve`, ops.as(finance2), {});
    expect(approved.statusCode, approved.body).toBe(200);
    const after = (await ops.call('GET', '/platform-fee-tiers?orderType=PAYIN', ops.as(approver))).json();
    expect(JSON.stringify(after)).toContain('0.0042');
  });

  it("a treasury withdrawal is checked against the books when proposed and posted when another operator approves it", async () => {
    const finance2 = await ops.signedIn('FINANCE');
    const funding = await t.ctx.app.inject({ method: 'POST', url: '/api/v1/admin/treasury/fundings', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { currency: 'USDC', amount: '1000', reference: `fund-${Date.now()}` } });
    expect(funding.statusCode, funding.body).toBe(201);
    const books = async () => totalOf(await t.ctx.app.services.ledger.treasuryWalletBalances()).get('USDC') ?? '0';
    const before = await books();

    const tooMuch = await propose(approver, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: String(Number(before) + 1), reference: 'too-much' }, reason: 'more than the books hold' });
    expectErrorBody(tooMuch, 409, 'CONFLICT');
    expectErrorBody(await propose(approver, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: '1.1234567', reference: 'x' }, reason: 'seven decimals' }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await propose(proposer, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: '10', reference: 'x' }, reason: 'OPERATIONS has no treasury.manage' }), 403, 'FORBIDDEN');

    const reference = `withdrawal-${Date.now()}`;
    const proposed = await propose(approver, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: '250.5', reference, note: 'to the cold wallet' }, reason: 'Rebalance to cold storage' });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const approval = proposed.json();
    expect(await books()).toBe(before);
    expectErrorBody(await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(approver), {}), 403, 'FORBIDDEN');
    const approved = await ops.call('POST', `/approvals/${approval.id}/approve`, ops.as(finance2), {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().result).toMatchObject({ withdrawal: { reference, currency: 'USDC', amount: '250.500000' } });
    expect(await books()).toBe(decimal(before).minus('250.5').toString());
    const unbalanced = await sql<{ currency: string }>`select currency from ledger_postings group by currency having sum(amount) <> 0`.execute(t.ctx.database.db);
    expect(unbalanced.rows).toEqual([]);
    // The same reference again is refused when proposed.
    expectErrorBody(await propose(approver, { action: 'TREASURY_WITHDRAWAL', targetId: 'USDC', params: { amount: '1', reference }, reason: 'again' }), 409, 'CONFLICT');
  });
});
