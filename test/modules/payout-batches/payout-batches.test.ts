/**
 * Payout batches (issue 43 item 3) on the sandbox chain and PSP: the validation report per line,
 * the merchant's four-eyes approval (a second person, never the creator, never an API key),
 * funding by one deposit making each valid line a PAYOUT order that the worker pays, a PIX refused
 * by the PSP failing its order alone, pause and cancel of the unpaid rest with the tokens held.
 */
import { describe, expect, it } from 'vitest';
import { type TestMerchant } from '../../helpers/app.ts';
import { type Person, peopleOf } from '../../helpers/people.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const asWho = (person: Person): TestMerchant => ({ headers: { cookie: person.cookie, 'x-csrf-token': person.csrf } }) as unknown as TestMerchant;

describe('payout batches', () => {
  const t = ordersTest();

  const create = async (who: TestMerchant, body: unknown, headers: Record<string, string> = {}) => t.call('POST', '/payout-batches', who, body, headers);

  it('validates every line before anything moves: good lines priced, bad ones reported, a broken format refused whole', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const pending = await t.pendingReceiver(merchant);
    await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 1, sourceToken: 'USDC', externalId: 'taken' });
    const response = await create(merchant, {
      token: 'USDC',
      items: [
        { receiverId: receiver.id, amountCrypto: 10, externalId: 'a-1' },
        { receiverId: pending.id, amountCrypto: 10 },
        { receiverId: receiver.id, amountCrypto: 10, externalId: 'a-1' },
        { receiverId: receiver.id, amountCrypto: 10, externalId: 'taken' },
        { receiverId: receiver.id, amountCrypto: 0.01 },
        { receiverId: '00000000-0000-7000-8000-000000000000', amountCrypto: 10 },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const batch = response.json();
    expect(batch).toMatchObject({ status: 'VALIDATED', itemCount: 6, validCount: 1, invalidCount: 5, totalCrypto: '10', totalBrl: '54.00', depositAddress: null });
    const items = (await t.call('GET', `/payout-batches/${batch.id}/items`, merchant)).json().data as Json[];
    expect(items.map((item) => [item.line, item.status, item.errors?.code ?? null])).toEqual([
      [1, 'VALID', null],
      [2, 'INVALID', 'KYC_NOT_APPROVED'],
      [3, 'INVALID', 'CONFLICT'],
      [4, 'INVALID', 'CONFLICT'],
      [5, 'INVALID', 'VALIDATION_ERROR'],
      [6, 'INVALID', 'NOT_FOUND'],
    ]);
    expect(items[0]).toMatchObject({ amountBrl: '54.00', netAmountBrl: '53.73' });

    const csv = `receiverId,amountCrypto,token\n${receiver.id},abc,USDC\n${receiver.id},"5,5",USDC\n`;
    const broken = await create(merchant, csv, { 'content-type': 'text/csv' });
    expect(broken.statusCode, broken.body).toBe(400);
    expect(Object.keys(broken.json().details)).toEqual(['line 2.amountCrypto', 'line 3.amountCrypto']);
    const noColumn = await create(merchant, 'receiverId,token\nx,USDC\n', { 'content-type': 'text/csv' });
    expect(noColumn.json().message).toContain('column amountCrypto is required');
    const report = await t.call('GET', `/payout-batches/${batch.id}/report`, merchant);
    expect(report.headers['content-type']).toContain('text/csv');
    expect(report.body.split('\r\n')[0]).toBe('line,status,receiverId,externalId,amountCrypto,amountBrl,netAmountBrl,orderId,orderStatus,errors');
    expect(report.body.split('\r\n')[2]).toContain('KYC_NOT_APPROVED');
  });

  it('needs a second person above the threshold: not its creator, not an API key', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const people = peopleOf(t.ctx.app, merchant.merchantId, t.clock, 'batch-approval');
    const owner = await people.manager('OWNER');
    const admin = await people.manager('ADMIN');
    expect((await t.call('PUT', '/payout-batch-settings', merchant, { approvalThresholdBrl: '100.00' })).json().details.reason).toBe('PERSON_REQUIRED');
    expect((await t.call('PUT', '/payout-batch-settings', asWho(admin), { approvalThresholdBrl: '100.00' })).json().details.reason).toBe('ROLE_NOT_ALLOWED');
    const set = await t.call('PUT', '/payout-batch-settings', asWho(owner), { approvalThresholdBrl: '100.00' });
    expect(set.json()).toMatchObject({ approvalThresholdBrl: '100.00' });

    const small = (await create(asWho(owner), { items: [{ receiverId: receiver.id, amountCrypto: 10 }] })).json();
    expect((await t.call('POST', `/payout-batches/${small.id}/submit`, asWho(owner))).json()).toMatchObject({ status: 'AWAITING_FUNDING', approvalRequired: false });

    const large = (await create(asWho(owner), { items: [{ receiverId: receiver.id, amountCrypto: 10 }, { receiverId: receiver.id, amountCrypto: 20 }] })).json();
    const submitted = (await t.call('POST', `/payout-batches/${large.id}/submit`, asWho(owner))).json();
    expect(submitted).toMatchObject({ status: 'AWAITING_APPROVAL', approvalRequired: true, depositAddress: null, createdByUserId: owner.id });
    expect((await t.call('POST', `/payout-batches/${large.id}/approve`, asWho(owner))).json().details.reason).toBe('SECOND_PERSON_REQUIRED');
    expect((await t.call('POST', `/payout-batches/${large.id}/approve`, merchant)).json().details.reason).toBe('PERSON_REQUIRED');
    const approved = await t.call('POST', `/payout-batches/${large.id}/approve`, asWho(admin));
    expect(approved.json()).toMatchObject({ status: 'AWAITING_FUNDING', approvedByUserId: admin.id });
    expect(approved.json().depositAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

    // Both acts are in the merchant's audit log (GET /audit-log), by the person who did them.
    expect((await t.call('PUT', '/payout-batch-settings', asWho(owner), { approvalThresholdBrl: null })).statusCode).toBe(200);
    const thresholds = (await t.call('GET', '/audit-log?action=payout_batch.set_threshold', asWho(owner))).json().data;
    expect(thresholds.map((e: Json) => [e.actor, e.targetType, e.targetId, e.details])).toEqual([
      [`user:${owner.id}`, 'payout_batch_settings', merchant.merchantId, { before: { approvalThresholdBrl: '100.00' }, after: { approvalThresholdBrl: null } }],
      [`user:${owner.id}`, 'payout_batch_settings', merchant.merchantId, { before: { approvalThresholdBrl: null }, after: { approvalThresholdBrl: '100.00' } }],
    ]);
    const approvals = (await t.call('GET', '/audit-log?action=payout_batch.approve', asWho(owner))).json().data;
    expect(approvals).toHaveLength(1);
    expect(approvals[0].requestId).toEqual(expect.any(String));
    expect(approvals[0]).toMatchObject({ actor: `user:${admin.id}`, targetType: 'payout_batch', targetId: large.id, details: { createdByUserId: owner.id, validLines: 2, before: { status: 'AWAITING_APPROVAL' }, after: { status: 'AWAITING_FUNDING' } } });
  });

  it('funds every valid line from one deposit; a PIX the PSP refuses fails its order alone', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const items = [1, 2, 3, 4].map((n) => ({ receiverId: receiver.id, amountCrypto: n, externalId: `pay-${n}` }));
    const batch = (await create(merchant, { token: 'USDC', items })).json();
    const waiting = (await t.call('POST', `/payout-batches/${batch.id}/submit`, merchant)).json();
    expect(waiting.status).toBe('AWAITING_FUNDING');
    // Under-funded: the batch waits.
    const part = (await t.call('POST', `/sandbox/payout-batches/${batch.id}/deposit`, merchant, { amountCrypto: 4 })).json();
    expect(part).toMatchObject({ status: 'AWAITING_FUNDING', fundedCrypto: '4', fundedAt: null });
    const funded = (await t.call('POST', `/sandbox/payout-batches/${batch.id}/deposit`, merchant, { amountCrypto: 7 })).json();
    expect(funded).toMatchObject({ status: 'COMPLETED', fundedCrypto: '11', heldCrypto: '1', progress: { ordered: 4, valid: 0 } });
    const lines = (await t.call('GET', `/payout-batches/${batch.id}/items`, merchant)).json().data as Json[];
    expect(lines.every((line) => line.orderStatus === 'DEPOSIT_RECEIVED')).toBe(true);
    const refused = lines[2]!.orderId;
    expect((await t.call('POST', `/sandbox/orders/${refused}/failure-injections`, merchant, { step: 'PIX_PAYOUT', reason: 'key not found' })).statusCode).toBe(201);
    await t.drive();
    const after = (await t.call('GET', `/payout-batches/${batch.id}`, merchant)).json();
    expect(after.progress).toMatchObject({ completed: 3, failed: 1 });
    const report = (await t.call('GET', `/payout-batches/${batch.id}/report`, merchant)).body;
    expect(report).toContain('PIX payout refused: key not found');
    const created = (await t.events(lines[0]!.orderId)).map((e) => e.event_type);
    expect(created[0]).toBe('order.created');
    expect(created.at(-1)).toBe('order.completed');
    // The ledger: the deposit held, each line's share released to its order, the rest held for return.
    const balances = (await t.call('GET', '/ledger/balances', merchant)).json();
    expect(balances.excessDepositsHeld).toEqual([expect.objectContaining({ token: 'USDC', amount: '1' })]);
  });

  it('pauses and cancels the unpaid rest, holding its tokens for return', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const batch = (await create(merchant, { items: [1, 2, 3].map((n) => ({ receiverId: receiver.id, amountCrypto: n })) })).json();
    await t.call('POST', `/payout-batches/${batch.id}/submit`, merchant);
    expect((await t.call('POST', `/payout-batches/${batch.id}/pause`, merchant)).json().status).toBe('PAUSED');
    const funded = (await t.call('POST', `/sandbox/payout-batches/${batch.id}/deposit`, merchant, {})).json();
    expect(funded).toMatchObject({ status: 'PAUSED', fundedCrypto: '6', heldCrypto: '6', progress: { valid: 3, ordered: 0 } });
    const cancelled = (await t.call('POST', `/payout-batches/${batch.id}/cancel`, merchant)).json();
    expect(cancelled).toMatchObject({ status: 'CANCELLED', heldCrypto: '6', progress: { cancelled: 3 } });
    expect((await t.call('POST', `/payout-batches/${batch.id}/resume`, merchant)).statusCode).toBe(409);
    const balances = (await t.call('GET', '/ledger/balances', merchant)).json();
    expect(balances.excessDepositsHeld).toEqual([expect.objectContaining({ token: 'USDC', amount: '6' })]);
  });
});
