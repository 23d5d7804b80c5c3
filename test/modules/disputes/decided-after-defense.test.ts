/**
 * Issue 38 item 8: a MED claim decided after the merchant's defense. Mutation testing showed that
 * no test decided a DEFENDED claim (`DEFENDED → []` survived: a held order would stay held for
 * ever and an accepted claim never be charged back), nor held `isResolved` to the final states.
 * Through the app and the sandbox PSP: defended, then accepted, the PIX goes back; defended, then
 * rejected or cancelled, the held order goes on; a stale report never moves a decided claim back.
 */
import { describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { UNRESOLVED, canMove, isResolved } from '../../../src/modules/disputes/state-machine.ts';
import { DISPUTE_STATUSES, type DisputeStatus } from '../../../src/modules/disputes/tables.ts';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

describe('the MED claim state machine', () => {
  it('moves only forward: OPEN to any later state, DEFENDED to a decision, nothing out of a decision', () => {
    const moves = Object.fromEntries(DISPUTE_STATUSES.map((from) => [from, DISPUTE_STATUSES.filter((to) => canMove(from, to))]));
    expect(moves).toEqual({
      OPEN: ['DEFENDED', 'ACCEPTED', 'REJECTED', 'CANCELLED'],
      DEFENDED: ['ACCEPTED', 'REJECTED', 'CANCELLED'],
      ACCEPTED: [],
      REJECTED: [],
      CANCELLED: [],
    });
  });

  it('is resolved only in a final state, and the unresolved ones are exactly the others', () => {
    const resolved = DISPUTE_STATUSES.filter((status: DisputeStatus) => isResolved(status));
    expect(resolved).toEqual(['ACCEPTED', 'REJECTED', 'CANCELLED']);
    expect([...UNRESOLVED].sort()).toEqual(DISPUTE_STATUSES.filter((status) => !isResolved(status)).sort());
  });
});

describe('a MED claim decided after the defense', () => {
  const t = ordersTest();

  const paidPayin = async (amountBrl: number) => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl });
    const paid = await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    expect(paid.statusCode, paid.body).toBe(200);
    return { merchant, order };
  };
  const defended = async (merchant: TestMerchant, orderId: string) => {
    const opened = await t.call('POST', `/sandbox/orders/${orderId}/med-claim`, merchant, { defenseHours: 2 });
    expect(opened.statusCode, opened.body).toBe(201);
    const defense = { justification: 'The payer is our customer and received the goods', evidence: [{ description: 'Delivery receipt' }] };
    const response = await t.call('POST', `/disputes/${opened.json().id}/defense`, merchant, defense);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ status: 'DEFENDED' });
    return response.json() as Json;
  };
  const decide = async (merchant: TestMerchant, disputeId: string, outcome: string) => {
    const response = await t.call('POST', `/sandbox/disputes/${disputeId}/decision`, merchant, { outcome });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };
  const orderOf = async (merchant: TestMerchant, id: string) => (await t.call('GET', `/orders/${id}`, merchant)).json() as Json;
  const feeBalance = async (merchant: TestMerchant) => decimal((await t.call('GET', '/ledger/fees/balance', merchant)).json().balance);

  it('held before the tokens left, defended, then accepted: the PIX goes back and the order ends REFUNDED', async () => {
    const { merchant, order } = await paidPayin(13);
    const dispute = await defended(merchant, order.id);
    expect(dispute.orderHeld).toBe(true);
    await t.drive();
    expect((await orderOf(merchant, order.id)).status).toBe('PAYMENT_RECEIVED');

    const accepted = await decide(merchant, dispute.id, 'ACCEPTED');
    expect(accepted).toMatchObject({ status: 'ACCEPTED', outcome: 'ORDER_REFUNDED', returnStatus: 'PENDING' });
    expect(accepted.resolvedAt).toEqual(expect.any(String));
    await t.drive();
    expect((await orderOf(merchant, order.id)).status).toBe('REFUNDED');
    const types = (await t.events(order.id)).map((e) => e.event_type);
    expect(types).toContain('dispute.resolved');
    expect(types.indexOf('dispute.updated')).toBeLessThan(types.indexOf('dispute.resolved'));
  });

  it('after COMPLETED, defended, then accepted: the merchant is charged back', async () => {
    const { merchant, order } = await paidPayin(19);
    await t.drive();
    expect((await orderOf(merchant, order.id)).status).toBe('COMPLETED');
    const before = await feeBalance(merchant);
    const dispute = await defended(merchant, order.id);

    const accepted = await decide(merchant, dispute.id, 'ACCEPTED');
    expect(accepted).toMatchObject({ status: 'ACCEPTED', outcome: 'CHARGED_BACK', returnStatus: 'PENDING' });
    expect((await feeBalance(merchant)).toString()).toBe(before.toString());
    expect((await t.call('GET', '/ledger/fees/balance', merchant)).json().chargebacksOwed).toBe('19.00');
  });

  for (const outcome of ['REJECTED', 'CANCELLED']) {
    it(`held, defended, then ${outcome}: the hold is released and the order goes on to COMPLETED`, async () => {
      const { merchant, order } = await paidPayin(17);
      const dispute = await defended(merchant, order.id);
      await t.drive();
      expect((await orderOf(merchant, order.id)).status).toBe('PAYMENT_RECEIVED');

      expect(await decide(merchant, dispute.id, outcome)).toMatchObject({ status: outcome, outcome: 'RELEASED' });
      await t.drive();
      expect((await orderOf(merchant, order.id)).status).toBe('COMPLETED');
    });
  }

  it('a stale report of an earlier state never moves a decided claim back, nor a defended one back to OPEN', async () => {
    const { merchant, order } = await paidPayin(16);
    const dispute = await defended(merchant, order.id);
    const row = await t.ctx.database.db.selectFrom('disputes').select(['psp_infraction_id', 'end_to_end_id']).where('id', '=', dispute.id).executeTakeFirstOrThrow();
    const report = (status: DisputeStatus) => ({
      infractionId: row.psp_infraction_id,
      endToEndId: row.end_to_end_id,
      status,
      reason: 'MED claim',
      amountBrl: '16',
      reportedAt: t.clock.now(),
      defenseDeadline: new Date(t.clock.now().getTime() + 3_600_000),
    });
    const disputes = t.ctx.app.services.disputes;
    expect(await disputes.handleInfraction(report('OPEN'))).toMatchObject({ status: 'DEFENDED' });
    await decide(merchant, dispute.id, 'REJECTED');
    for (const status of ['OPEN', 'DEFENDED', 'ACCEPTED'] as const) {
      expect(await disputes.handleInfraction(report(status))).toMatchObject({ status: 'REJECTED', outcome: 'RELEASED' });
    }
    await t.drive();
    expect((await orderOf(merchant, order.id)).status).toBe('COMPLETED');
  });
});
