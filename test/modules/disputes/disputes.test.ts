/**
 * MED 2.0 fraud claims (issue 30), through the app and the sandbox PSP's MED extension: a claim
 * before the tokens leave holds the order and returns the PIX (MED_FRAUDE), one after COMPLETED is
 * charged back to the merchant, and a defense is taken only while the claim is open and in time.
 */
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { disputeEventDefinitions } from '../../../src/modules/disputes/events.ts';
import { disputesRepo } from '../../../src/modules/disputes/repo.ts';
import { ADMIN_TOKEN, type TestMerchant, expectErrorBody } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => void;

describe('MED fraud claims (disputes)', () => {
  const t = ordersTest();

  const paidPayin = async (amountBrl: number) => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl });
    const paid = await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    expect(paid.statusCode, paid.body).toBe(200);
    return { merchant, order };
  };
  const claim = async (merchant: TestMerchant, orderId: string, body: Json = {}) => {
    const response = await t.call('POST', `/sandbox/orders/${orderId}/med-claim`, merchant, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Json;
  };
  const decide = async (merchant: TestMerchant, disputeId: string, outcome: string) => {
    const response = await t.call('POST', `/sandbox/disputes/${disputeId}/decision`, merchant, { outcome });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };
  const orderOf = async (merchant: TestMerchant, id: string) => (await t.call('GET', `/orders/${id}`, merchant)).json() as Json;
  const disputeOf = async (merchant: TestMerchant, id: string) => (await t.call('GET', `/disputes/${id}`, merchant)).json() as Json;
  const transfersOf = (orderId: string) => t.ctx.database.db.selectFrom('sandbox_chain_transfers').select('idempotency_key').where('idempotency_key', '=', orderId).execute();
  const feeBalance = async (merchant: TestMerchant) => decimal((await t.call('GET', '/ledger/fees/balance', merchant)).json().balance);
  const balanceOf = async (merchant: TestMerchant) => (await t.call('GET', '/ledger/fees/balance', merchant)).json() as Json;
  const settle = async (merchant: TestMerchant) => {
    // A run closes the entries created before now: the test clock stands still otherwise.
    t.clock.advance(1000);
    const response = await t.call('POST', '/sandbox/settlements/run', merchant, {});
    expect(response.statusCode, response.body).toBe(200);
    return response.json().settlements as Json[];
  };
  const entriesOf = (disputeId: string) =>
    t.ctx.database.db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_postings as p', 'p.entry_id', 'e.id')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['e.kind', 'a.code', 'p.currency', 'p.amount'])
      .where('e.reference_type', '=', 'dispute')
      .where('e.reference_id', '=', disputeId)
      .execute();

  it('a claim before the tokens leave holds the order; accepted, the PIX goes back as MED_FRAUDE and the order ends REFUNDED', async () => {
    const { merchant, order } = await paidPayin(15);
    const dispute = await claim(merchant, order.id);
    expect(dispute).toMatchObject({ status: 'OPEN', orderId: order.id, orderHeld: true, amountBrl: 15, outcome: null });

    await t.drive();
    expect((await orderOf(merchant, order.id)).status).toBe('PAYMENT_RECEIVED');
    expect(await transfersOf(order.id)).toHaveLength(0);

    const accepted = await decide(merchant, dispute.id, 'ACCEPTED');
    expect(accepted).toMatchObject({ status: 'ACCEPTED', outcome: 'ORDER_REFUNDED', returnStatus: 'PENDING' });
    await t.drive();

    const ended = await orderOf(merchant, order.id);
    expect(ended.status).toBe('REFUNDED');
    expect(ended.failureReason).toContain('MED_FRAUDE');
    expect(await transfersOf(order.id)).toHaveLength(0);
    const refunds = await t.ctx.database.db.selectFrom('sandbox_pix_refunds').select(['nature', 'amount_brl', 'status']).where('end_to_end_id', '=', dispute.pixEndToEndId).execute();
    expect(refunds).toEqual([{ nature: 'MED_FRAUDE', amount_brl: expect.stringMatching(/^15(\.0+)?$/), status: 'DEVOLVIDO' }]);
    expect(await disputeOf(merchant, dispute.id)).toMatchObject({ status: 'ACCEPTED', outcome: 'ORDER_REFUNDED', returnStatus: 'RETURNED' });
    expect((await t.events(order.id)).map((e) => e.event_type)).toEqual([
      'order.payment_received',
      'order.disputed',
      'order.refunding',
      'dispute.resolved',
      'dispute.updated',
      'order.refunded',
    ]);
    // The claim's events are numbered 1, 2, 3 in the order recorded, the return in English; the row keeps the API Pix term.
    const claimEvents = (await t.events(order.id)).filter((e) => e.payload.disputeId === dispute.id);
    expect(claimEvents.map((e) => [e.event_type, e.payload.sequence, e.payload.returnStatus])).toEqual([
      ['order.disputed', 1, null],
      ['dispute.resolved', 2, 'PENDING'],
      ['dispute.updated', 3, 'RETURNED'],
    ]);
    expect(await t.ctx.database.db.selectFrom('disputes').select(['return_status', 'event_sequence']).where('id', '=', dispute.id).executeTakeFirstOrThrow()).toEqual({
      return_status: 'DEVOLVIDO',
      event_sequence: 3,
    });
  });

  it('a claim after COMPLETED, accepted, charges the merchant back with balanced postings and returns the PIX from the platform', async () => {
    const { merchant, order } = await paidPayin(20);
    await t.drive();
    expect((await orderOf(merchant, order.id)).status).toBe('COMPLETED');
    const before = await feeBalance(merchant);

    const dispute = await claim(merchant, order.id);
    expect(dispute.orderHeld).toBe(false);
    const accepted = await decide(merchant, dispute.id, 'ACCEPTED');
    expect(accepted).toMatchObject({ outcome: 'CHARGED_BACK', returnStatus: 'PENDING' });
    // The fee balance is the fees not settled (the spec's), never less; the charge-back is owed apart.
    expect((await feeBalance(merchant)).toString()).toBe(before.toString());
    expect((await balanceOf(merchant)).chargebacksOwed).toBe('20.00');

    expect(await t.ctx.app.services.disputes.runDue()).toBe(1);
    await t.drive(1);
    expect(await disputeOf(merchant, dispute.id)).toMatchObject({ returnStatus: 'RETURNED' });
    expect((await orderOf(merchant, order.id)).status).toBe('COMPLETED');

    const postings = await entriesOf(dispute.id);
    const byKind = (kind: string) => postings.filter((p) => p.kind === kind).map((p) => ({ code: p.code, amount: decimal(p.amount).toString() }));
    expect(byKind('DISPUTE_CHARGEBACK')).toEqual(expect.arrayContaining([{ code: 'merchant_chargebacks_owed', amount: '20' }, { code: 'med_returns_payable', amount: '-20' }]));
    expect(byKind('DISPUTE_RETURNED')).toEqual(expect.arrayContaining([{ code: 'med_returns_payable', amount: '20' }, { code: 'pix_cash', amount: '-20' }]));
    for (const kind of ['DISPUTE_CHARGEBACK', 'DISPUTE_RETURNED']) {
      expect(byKind(kind).reduce((sum, p) => sum.plus(p.amount), decimal(0)).isZero()).toBe(true);
    }
    const refund = await t.ctx.database.db.selectFrom('sandbox_pix_refunds').select('nature').where('end_to_end_id', '=', dispute.pixEndToEndId).executeTakeFirstOrThrow();
    expect(refund.nature).toBe('MED_FRAUDE');
    // The operations register holds the return beside the PIX in and the transfer, once.
    const register = await t.ctx.database.db.selectFrom('operations_register').select(['movement', 'direction', 'value_brl', 'psp_reference']).where('order_id', '=', order.id).orderBy('occurred_at').execute();
    expect(register.map((row) => row.movement).sort()).toEqual(['CHAIN_TRANSFER', 'PIX_IN', 'PIX_REFUND']);
    const returned = register.find((row) => row.movement === 'PIX_REFUND')!;
    expect(returned).toMatchObject({ direction: 'OUT', psp_reference: `M${String(dispute.id).replaceAll('-', '')}` });
    expect(decimal(returned.value_brl).toString()).toBe('20');

    // Fees that do not cover what is owed: the settlement pays nothing, and both stay open.
    expect(await settle(merchant)).toEqual([]);
    expect(await balanceOf(merchant)).toMatchObject({ balance: before.toFixed(2), chargebacksOwed: '20.00' });
  });

  it('a settlement nets what the merchant owes for charge-backs against its fees and pays the rest; neither balance goes below zero', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const tiers = await t.call('PUT', '/fee-tiers/PAYIN', merchant, [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.05 }]);
    expect(tiers.statusCode, tiers.body).toBe(200);
    const completed = async (amountBrl: number) => {
      const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl });
      expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
      await t.drive();
      expect((await orderOf(merchant, order.id)).status).toBe('COMPLETED');
      return order;
    };
    const first = await completed(20);
    await decide(merchant, (await claim(merchant, first.id)).id, 'ACCEPTED');
    // The MED return is the platform's (med_returns_payable): paid, it changes neither balance.
    expect(await t.ctx.app.services.disputes.runDue()).toBe(1);
    await t.drive(1);
    // What operators see due: the fees less what is owed, and only when a run would pay something.
    const due = async () => {
      const response = await t.ctx.app.inject({ method: 'GET', url: '/api/v1/admin/settlements/due?limit=100', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().data as Json[]).find((row) => row.merchantId === merchant.merchantId);
    };
    expect(await balanceOf(merchant)).toEqual({ merchantId: merchant.merchantId, balance: '1.00', chargebacksOwed: '20.00', markupBalance: '0.00', currency: 'BRL' });
    t.clock.advance(1000);
    expect(await due()).toBeUndefined();
    expect(await settle(merchant)).toEqual([]);

    await completed(1000);
    expect(await balanceOf(merchant)).toMatchObject({ balance: '51.00', chargebacksOwed: '20.00' });
    t.clock.advance(1000);
    expect(await due()).toMatchObject({ amountBrl: '31.00', chargebacksOwedBrl: '20.00', entries: 2 });
    const [settlement] = await settle(merchant);
    expect(settlement).toMatchObject({ amountBrl: 31, entriesCount: 2 });
    expect(await balanceOf(merchant)).toMatchObject({ balance: '0.00', chargebacksOwed: '0.00' });
    const postings = await t.ctx.database.db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_postings as p', 'p.entry_id', 'e.id')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['a.code', 'p.amount'])
      .where('e.reference_id', '=', settlement!.id as string)
      .execute();
    expect(postings.map((p) => ({ code: p.code, amount: decimal(p.amount).toString() }))).toEqual(
      expect.arrayContaining([
        { code: 'merchant_fees_payable', amount: '51' },
        { code: 'merchant_chargebacks_owed', amount: '-20' },
        { code: 'merchant_settlements', amount: '-31' },
      ]),
    );
    expect(await settle(merchant)).toEqual([]);
  });

  it("a charged-back claim's MED return whose notification is lost is read back from the PSP by the disputes job", async () => {
    const { merchant, order } = await paidPayin(18);
    await t.drive();
    const dispute = await claim(merchant, order.id);
    await decide(merchant, dispute.id, 'ACCEPTED');
    const disputes = t.ctx.app.services.disputes;
    expect(await disputes.runDue()).toBe(1);
    // The sandbox bank settles the return, and its notification never reaches us.
    expect(await t.ctx.app.services.adapters.sandbox.pix.settleRefunds()).toHaveLength(1);
    expect(await disputeOf(merchant, dispute.id)).toMatchObject({ returnStatus: 'PROCESSING' });
    expect(await disputes.runDue()).toBe(0);
    t.clock.advance(5 * 60_000);
    expect(await disputes.runDue()).toBe(1);
    expect(await disputeOf(merchant, dispute.id)).toMatchObject({ returnStatus: 'RETURNED' });
    expect((await entriesOf(dispute.id)).map((p) => p.kind)).toContain('DISPUTE_RETURNED');
    expect(await disputes.runDue()).toBe(0);
  });

  it('a due claim is leased by the worker that takes it: its next look moves ahead, no other worker takes it until the lease lapses', async () => {
    const { merchant, order } = await paidPayin(19);
    await t.drive();
    const dispute = await claim(merchant, order.id);
    await decide(merchant, dispute.id, 'ACCEPTED');
    const db = t.ctx.database.db;
    const now = t.clock.now();
    const leaseEnd = new Date(now.getTime() + 60_000);
    const first = await disputesRepo.claimDue(db, now, 10, 60_000);
    expect(first.map((row) => [row.id, row.next_step_at])).toEqual([[dispute.id, leaseEnd]]);
    expect(await disputesRepo.claimDue(db, now, 10, 60_000)).toEqual([]);
    expect((await disputesRepo.claimDue(db, leaseEnd, 10, 60_000)).map((row) => row.id)).toEqual([dispute.id]);
  });

  it('a defense before the deadline moves the claim to DEFENDED; one after it, or a second one, is refused', async () => {
    const { merchant, order } = await paidPayin(12);
    const dispute = await claim(merchant, order.id, { defenseHours: 2 });
    const defense = { justification: 'The payer is our customer and received the goods', evidence: [{ description: 'Delivery receipt', url: 'https://example.com/r/1' }] };
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'ftp://example.com/r/1']) {
      const refused = await t.call('POST', `/disputes/${dispute.id}/defense`, merchant, { ...defense, evidence: [{ description: 'Delivery receipt', url }] });
      expectErrorBody(refused, 400, 'VALIDATION_ERROR');
    }
    const defended = await t.call('POST', `/disputes/${dispute.id}/defense`, merchant, defense);
    expect(defended.statusCode, defended.body).toBe(200);
    expect(defended.json()).toMatchObject({ status: 'DEFENDED', defense: { justification: defense.justification, evidence: defense.evidence } });
    const atPsp = await t.ctx.database.db.selectFrom('sandbox_pix_infractions').select(['status', 'justification']).where('end_to_end_id', '=', dispute.pixEndToEndId).executeTakeFirstOrThrow();
    expect(atPsp.status).toBe('EM_DEFESA');
    expect(atPsp.justification).toContain('Delivery receipt');
    expectErrorBody(await t.call('POST', `/disputes/${dispute.id}/defense`, merchant, defense), 409, 'DISPUTE_NOT_OPEN');

    // A second claim on the same PIX, for part of it, with a deadline an hour away.
    const late = await claim(merchant, order.id, { defenseHours: 1, amountBrl: 5 });
    t.clock.advance(3_600_000);
    expectErrorBody(await t.call('POST', `/disputes/${late.id}/defense`, merchant, defense), 422, 'DEFENSE_DEADLINE_PASSED');
    expect((await disputeOf(merchant, late.id)).status).toBe('OPEN');
  });

  it('a worker that read the order before the hold cannot take it towards its transfer', async () => {
    const { merchant, order } = await paidPayin(11);
    const steps = t.ctx.app.services.orderSteps;
    const row = async () => (await t.ctx.database.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow()) as never;
    const swapping = await steps.runStep(await row());
    expect(swapping).toMatchObject({ status: 'SWAPPING' });
    await claim(merchant, order.id);
    // The stale SWAPPING row: its transfer is prepared, but the guarded move to TRANSFERRING finds the hold.
    expect(await steps.runStep(swapping!)).toBeUndefined();
    expect((await orderOf(merchant, order.id)).status).toBe('SWAPPING');
    await t.drive();
    expect((await orderOf(merchant, order.id)).status).toBe('SWAPPING');
    expect(await transfersOf(order.id)).toHaveLength(0);
  });

  it('a rejected claim lets the held order go on to COMPLETED; another merchant sees none of it', async () => {
    const { merchant, order } = await paidPayin(14);
    const dispute = await claim(merchant, order.id);
    const rejected = await decide(merchant, dispute.id, 'REJECTED');
    expect(rejected).toMatchObject({ status: 'REJECTED', outcome: 'RELEASED' });
    await t.drive();
    expect((await orderOf(merchant, order.id)).status).toBe('COMPLETED');
    const stranger = await t.merchant('Outra Loja');
    expect((await t.call('GET', `/disputes/${dispute.id}`, stranger)).statusCode).toBe(404);
    expect((await t.call('GET', '/disputes', stranger)).json().total).toBe(0);
    expect((await t.call('GET', `/disputes?orderId=${order.id}`, merchant)).json().data.map((d: Json) => d.id)).toEqual([dispute.id]);
  });

  it("the PSP sync records a claim opened at the PSP, and a repeat of it changes nothing; every event matches the catalog's schema", async () => {
    const { merchant, order } = await paidPayin(16);
    const { pixEndToEndId } = await t.ctx.database.db.selectFrom('orders').select('pix_end_to_end_id as pixEndToEndId').where('id', '=', order.id).executeTakeFirstOrThrow();
    const services = t.ctx.app.services;
    await services.adapters.sandbox.pix.openInfraction({ endToEndId: pixEndToEndId!, receivedBrl: '16' });
    await services.disputes.syncWithPsp();
    await services.disputes.syncWithPsp();
    const listed = (await t.call('GET', `/disputes?orderId=${order.id}`, merchant)).json();
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toMatchObject({ status: 'OPEN', orderHeld: true });

    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const schemas = new Map(disputeEventDefinitions().map((d) => [d.name, ajv.compile(d.payload)]));
    const events = await t.ctx.database.db.selectFrom('events').select(['event_type', 'payload']).where('event_type', 'in', [...schemas.keys()]).execute();
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      const validate = schemas.get(event.event_type)!;
      expect(validate({ event: event.event_type, ...event.payload, deliveryId: 'd' }), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});
