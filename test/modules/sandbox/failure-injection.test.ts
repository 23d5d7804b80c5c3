/**
 * Every event of the webhook catalog, produced on demand (issue 15). The table below says how the
 * sandbox produces each one; the tests drive each scenario the way the worker really runs
 * (failures are armed ahead with POST /sandbox/orders/{id}/failure-injections, then the money
 * arrives and the worker and the sandbox banks run freely), and check the events the outbox
 * recorded for webhooks (names, order, payloads against the catalog's schemas) and the order's
 * final status. Plus the endpoint's own cases: wrong type, wrong status, another merchant's
 * order, no credentials, an Idempotency-Key replay.
 */
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { orderEventDefinitions } from '../../../src/modules/orders/events.ts';
import { receiverEventDefinitions } from '../../../src/modules/receivers/events.ts';
import { buildCatalog } from '../../../src/modules/webhooks/catalog.ts';
import { expectErrorBody } from '../../helpers/app.ts';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => void;

type Scenario = 'kycApproved' | 'kycRejected' | 'payinCompleted' | 'payinRefunded' | 'payinFailed' | 'lateRefundFailed' | 'payoutCompleted' | 'payoutFailed';
type Subject = 'PAYIN' | 'PAYOUT' | 'RECEIVER' | 'ENDPOINT';

/** Every catalog event × order type, and how the sandbox produces it. */
const PRODUCED_BY: Array<{ event: string; subject: Subject; how: string; scenario?: Scenario }> = [
  { event: 'receiver.kyc_approved', subject: 'RECEIVER', scenario: 'kycApproved', how: 'POST /sandbox/receivers/{id}/kyc {decision: APPROVE}' },
  { event: 'receiver.kyc_rejected', subject: 'RECEIVER', scenario: 'kycRejected', how: 'POST /sandbox/receivers/{id}/kyc {decision: REJECT, reason}' },
  { event: 'order.payment_received', subject: 'PAYIN', scenario: 'payinCompleted', how: 'POST /sandbox/orders/{id}/pix-payment' },
  { event: 'order.completed', subject: 'PAYIN', scenario: 'payinCompleted', how: 'pix-payment; the worker transfers the tokens' },
  { event: 'order.refunding', subject: 'PAYIN', scenario: 'payinRefunded', how: 'failure-injections {step: CHAIN_TRANSFER}, then pix-payment' },
  { event: 'order.refunded', subject: 'PAYIN', scenario: 'payinRefunded', how: 'failure-injections {step: CHAIN_TRANSFER}, then pix-payment; the sandbox bank returns the PIX' },
  {
    event: 'order.failed',
    subject: 'PAYIN',
    scenario: 'payinFailed',
    how: 'failure-injections {step: CHAIN_TRANSFER} and {step: PIX_REFUND}, then pix-payment: the refund comes back NAO_REALIZADO (the failed refund)',
  },
  { event: 'order.deposit_received', subject: 'PAYOUT', scenario: 'payoutCompleted', how: 'POST /sandbox/orders/{id}/deposit' },
  { event: 'order.processing', subject: 'PAYOUT', scenario: 'payoutCompleted', how: 'deposit; the worker queues the PIX' },
  { event: 'order.pix_sending', subject: 'PAYOUT', scenario: 'payoutCompleted', how: 'deposit; the worker sends the PIX' },
  { event: 'order.completed', subject: 'PAYOUT', scenario: 'payoutCompleted', how: 'deposit; the sandbox bank confirms the PIX' },
  { event: 'order.failed', subject: 'PAYOUT', scenario: 'payoutFailed', how: 'failure-injections {step: PIX_PAYOUT}, then deposit: the receiving bank refuses the PIX' },
  // Not about orders or receivers: produced by the webhooks API itself, tested in test/modules/webhooks/.
  { event: 'webhook.test', subject: 'ENDPOINT', how: 'POST /webhook/endpoints/{id}/test (test/modules/webhooks/)' },
  { event: 'webhook.endpoint_disabled', subject: 'ENDPOINT', how: 'deliveries failing until the endpoint is disabled (test/modules/webhooks/reliability.test.ts)' },
];

const catalog = buildCatalog([...orderEventDefinitions(), ...receiverEventDefinitions()]);

describe('sandbox: every catalog event on demand', () => {
  const t = ordersTest();

  const inject = (who: TestMerchant, order: Json, step: string, reason?: string, headers?: Record<string, string>) =>
    t.call('POST', `/sandbox/orders/${order.id}/failure-injections`, who, reason === undefined ? { step } : { step, reason }, headers);

  /** The worker and the sandbox banks run freely, as the job does: no call in between. */
  const runFreely = () => t.drive(8);

  async function orderScenario(who: TestMerchant, scenario: Scenario): Promise<{ id: string; status: string; events: Json[]; order: Json }> {
    const receiver = await t.activeReceiver(who);
    let order: Json;
    if (scenario.startsWith('payout')) {
      order = await t.payout(who, { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC' });
      if (scenario === 'payoutFailed') expect((await inject(who, order, 'PIX_PAYOUT', 'key not found')).statusCode).toBe(201);
      await t.call('POST', `/sandbox/orders/${order.id}/deposit`, who, {});
    } else {
      order = await t.payin(who, { receiverId: receiver.id, amountBrl: 25 });
      if (scenario === 'payinRefunded' || scenario === 'payinFailed') {
        expect((await inject(who, order, 'CHAIN_TRANSFER', 'account frozen')).statusCode).toBe(201);
      }
      if (scenario === 'payinFailed' || scenario === 'lateRefundFailed') {
        expect((await inject(who, order, 'PIX_REFUND', 'payer account closed')).statusCode).toBe(201);
      }
      if (scenario === 'lateRefundFailed') {
        t.clock.advance(900_000);
        await runFreely();
      }
      await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, who, {});
    }
    await runFreely();
    const final = (await t.call('GET', `/orders/${order.id}`, who)).json();
    const events = (await t.events(order.id)).map((row) => ({ event: row.event_type, ...row.payload }));
    return { id: order.id, status: final.status, events, order: final };
  }

  it('the table names every catalog event, once per order type it concerns', () => {
    const expected = catalog.entries.flatMap((entry) =>
      entry.orderTypes ? entry.orderTypes.map((type) => `${entry.name} ${type}`) : [`${entry.name} ${entry.category === 'receiver' ? 'RECEIVER' : 'ENDPOINT'}`],
    );
    expect(PRODUCED_BY.map((row) => `${row.event} ${row.subject}`).sort()).toEqual(expected.sort());
  });

  it('drives every order and receiver event of the table and sees it recorded for webhooks, matching its catalog schema', async () => {
    const merchant = await t.merchant();
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const seen = new Map<Scenario, Json[]>();
    for (const row of PRODUCED_BY) {
      if (!row.scenario) continue;
      if (!seen.has(row.scenario)) {
        if (row.subject === 'RECEIVER') {
          const receiver = await t.pendingReceiver(merchant);
          const decision = row.scenario === 'kycApproved' ? { decision: 'APPROVE' } : { decision: 'REJECT', reason: 'document unreadable' };
          expect((await t.call('POST', `/sandbox/receivers/${receiver.id}/kyc`, merchant, decision)).statusCode).toBe(200);
          const rows = await t.ctx.database.db.selectFrom('events').select(['event_type', 'payload']).where('merchant_id', '=', merchant.merchantId).execute();
          seen.set(row.scenario, rows.filter((r) => r.payload.receiverId === receiver.id).map((r) => ({ event: r.event_type, ...r.payload })));
        } else {
          seen.set(row.scenario, (await orderScenario(merchant, row.scenario)).events);
        }
      }
      const event = seen.get(row.scenario)!.find((e) => e.event === row.event && (row.subject === 'RECEIVER' || e.type === row.subject));
      expect(event, `${row.event} (${row.subject}) by ${row.how}`).toBeDefined();
      const validate = ajv.compile(catalog.entries.find((entry) => entry.name === row.event)!.payload);
      expect(validate({ ...event, deliveryId: 'd' }), `${row.event}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('PAYIN: an armed transfer failure refunds the PIX (payment_received → refunding → refunded)', async () => {
    const merchant = await t.merchant();
    const result = await orderScenario(merchant, 'payinRefunded');
    expect(result.status).toBe('REFUNDED');
    expect(result.events.map((e) => e.event)).toEqual(['order.payment_received', 'order.refunding', 'order.refunded']);
    expect(result.events[1]).toMatchObject({ status: 'REFUNDING', failureReason: 'On-chain transfer failed: account frozen' });
  });

  it('PAYIN: an armed transfer and refund failure ends FAILED with the failed refund (order.failed)', async () => {
    const merchant = await t.merchant();
    const result = await orderScenario(merchant, 'payinFailed');
    expect(result.status).toBe('FAILED');
    expect(result.events.map((e) => e.event)).toEqual(['order.payment_received', 'order.refunding', 'order.failed']);
    expect(result.events[2]).toMatchObject({ type: 'PAYIN', status: 'FAILED', failureReason: 'Refund failed: payer account closed' });
    expect(result.order.transactions.map((tx: Json) => [tx.type, tx.status])).toEqual(
      expect.arrayContaining([
        ['PIX_IN', 'CONFIRMED'],
        ['CHAIN_TRANSFER', 'FAILED'],
        ['PIX_REFUND', 'FAILED'],
      ]),
    );
  });

  it('PAYIN: a PIX paid after expiry is refunded, and an armed refund failure makes that refund fail too', async () => {
    const merchant = await t.merchant();
    const result = await orderScenario(merchant, 'lateRefundFailed');
    expect(result.status).toBe('FAILED');
    expect(result.events.map((e) => e.event)).toEqual(['order.refunding', 'order.failed']);
  });

  it('PAYOUT: an armed PIX failure is refused when the bank settles it (… pix_sending → failed), however fast the worker', async () => {
    const merchant = await t.merchant();
    const result = await orderScenario(merchant, 'payoutFailed');
    expect(result.status).toBe('FAILED');
    expect(result.events.map((e) => e.event)).toEqual(['order.deposit_received', 'order.processing', 'order.pix_sending', 'order.failed']);
    expect(result.events[3]).toMatchObject({ type: 'PAYOUT', status: 'FAILED', failureReason: 'PIX payout refused: key not found' });
  });

  it('an armed failure belongs to its order: another order of the same receiver completes', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const armed = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    const other = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 11 });
    expect((await inject(merchant, armed, 'CHAIN_TRANSFER')).statusCode).toBe(201);
    // The other order pays first, to the same wallet: it must not take the armed failure.
    await t.call('POST', `/sandbox/orders/${other.id}/pix-payment`, merchant, {});
    await runFreely();
    await t.call('POST', `/sandbox/orders/${armed.id}/pix-payment`, merchant, {});
    await runFreely();
    expect((await t.call('GET', `/orders/${other.id}`, merchant)).json().status).toBe('COMPLETED');
    expect((await t.call('GET', `/orders/${armed.id}`, merchant)).json()).toMatchObject({ status: 'REFUNDED', failureReason: 'On-chain transfer failed: Simulated failure' });
  });

  it('answers 201 with the armed failure, and replays it for the same Idempotency-Key', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC' });
    const headers = { 'idempotency-key': `arm-${order.id}` };
    const first = await inject(merchant, order, 'PIX_PAYOUT', 'closed', headers);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ orderId: order.id, step: 'PIX_PAYOUT', reason: 'closed', armedAt: t.clock.now().toISOString() });
    const again = await inject(merchant, order, 'PIX_PAYOUT', 'closed', headers);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
  });

  it('refuses a step of the other order type (400), a step already past (409), another merchant’s order (404) and no credentials (401)', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const payin = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 10 });
    const payout = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC' });
    expectErrorBody(await inject(merchant, payin, 'PIX_PAYOUT'), 400, 'VALIDATION_ERROR');
    expectErrorBody(await inject(merchant, payout, 'CHAIN_TRANSFER'), 400, 'VALIDATION_ERROR');
    await t.call('POST', `/sandbox/orders/${payin.id}/pix-payment`, merchant, {});
    await runFreely();
    expectErrorBody(await inject(merchant, payin, 'CHAIN_TRANSFER'), 409, 'CONFLICT');
    expectErrorBody(await inject(merchant, payin, 'PIX_REFUND'), 409, 'CONFLICT');
    const stranger = await t.merchant('Outra Loja');
    expectErrorBody(await inject(stranger, payout, 'PIX_PAYOUT'), 404, 'NOT_FOUND');
    const anonymous = await t.ctx.app.inject({ method: 'POST', url: `/api/v1/sandbox/orders/${payout.id}/failure-injections`, payload: { step: 'PIX_PAYOUT' } });
    expect(anonymous.statusCode).toBe(401);
    expectErrorBody(await t.call('POST', `/sandbox/orders/${payout.id}/failure-injections`, merchant, { step: 'SWAP' }), 400, 'VALIDATION_ERROR');
  });
});
