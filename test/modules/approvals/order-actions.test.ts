/**
 * One operator's actions on stuck orders (no money moves): retry a worker step, and end as FAILED
 * an order the provider never settles. Each only where the order's allowedActions says, audited
 * with before and after; a role without orders.operate is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { operatorsOf, type SignedInOperator } from '../../helpers/operators.ts';
import { ordersTest } from '../orders/helpers.ts';

const t = ordersTest();
let ops: ReturnType<typeof operatorsOf>;
let operations: SignedInOperator;
let compliance: SignedInOperator;

beforeAll(async () => {
  ops = operatorsOf(t.ctx.app, t.clock, 'orderactions');
  operations = await ops.signedIn('OPERATIONS');
  compliance = await ops.signedIn('COMPLIANCE');
});

describe('operator actions on stuck orders', () => {
  it('RETRY_STEP makes a PAYIN waiting for its worker step due now; it then completes', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 15 });
    await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    // A step that failed and backs off for an hour.
    await t.ctx.database.db.updateTable('orders').set({ next_step_at: new Date(t.clock.now().getTime() + 3_600_000), step_attempts: 7 }).where('id', '=', order.id).execute();
    expectErrorBody(await ops.call('POST', `/orders/${order.id}/retry-step`, ops.as(compliance)), 403, 'FORBIDDEN');

    const retried = await ops.call('POST', `/orders/${order.id}/retry-step`, ops.as(operations));
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ id: order.id, status: 'PAYMENT_RECEIVED' });
    await t.drive();
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('COMPLETED');
    const audit = await t.ctx.database.db.selectFrom('admin_audit_log').select(['actor', 'details']).where('action', '=', 'order.retry_step').where('target_id', '=', order.id).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor: `operator:${operations.id}`, details: { before: { status: 'PAYMENT_RECEIVED', stepAttempts: 7 }, after: { stepAttempts: 0 } } });
    expectErrorBody(await ops.call('POST', `/orders/${order.id}/retry-step`, ops.as(operations)), 409, 'CONFLICT');
  });

  it('MARK_FAILED ends a PAYOUT whose PIX is never confirmed, with order.failed and the reason', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 3, sourceToken: 'USDC' });
    await t.call('POST', `/sandbox/orders/${order.id}/deposit`, merchant, {});
    await t.ctx.app.services.orderSteps.runDuePass();
    await t.ctx.app.services.orderSteps.runDuePass();
    expect((await t.call('GET', `/orders/${order.id}`, merchant)).json().status).toBe('PIX_SENT_UNCONFIRMED');

    expectErrorBody(await ops.call('POST', `/orders/${order.id}/mark-failed`, ops.as(operations), { reason: '' }), 400, 'VALIDATION_ERROR');
    const failed = await ops.call('POST', `/orders/${order.id}/mark-failed`, ops.as(operations), { reason: 'The PSP says the PIX was never sent' });
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json()).toMatchObject({ status: 'FAILED', failureReason: 'Marked failed by an operator: The PSP says the PIX was never sent' });
    expect((await t.events(order.id)).map((e) => e.event_type).at(-1)).toBe('order.failed');
    expectErrorBody(await ops.call('POST', `/orders/${order.id}/mark-failed`, ops.as(operations), { reason: 'twice' }), 409, 'CONFLICT');
  });

  it('an unknown order is 404', async () => {
    expectErrorBody(await ops.call('POST', '/orders/01932c4e-8a1b-7c3d-9e4f-5a6b7c8d9e0f/retry-step', ops.as(operations)), 404, 'NOT_FOUND');
  });
});
