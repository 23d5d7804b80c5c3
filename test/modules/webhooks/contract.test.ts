/**
 * The webhook contract against what the sandbox really sends (issue 41): every event of the
 * catalog is produced by driving the flow that emits it, delivered over HTTP to a local receiver,
 * verified as a merchant would (Standard Webhooks), and validated against its payload schema in
 * the OpenAPI document's `webhooks` section (the one the service serves). The schemas are closed
 * and list every field as required, so the test also shows that a body with an extra field, or
 * without any one of its fields, is refused. COVERED_BY says which flow produces each event; the
 * test fails if the catalog has an event the table lacks, or one the flows did not deliver.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';
import { inTransaction } from '../../../src/platform/commit-signals.ts';
import { newId } from '../../../src/lib/ids.ts';
import { recordOrderCreated } from '../../../src/modules/orders/order-source.ts';
import { ORDER_COLUMNS } from '../../../src/modules/orders/tables.ts';
import { type ReceivedRequest, type Receiver, startReceiver, verify } from './helpers.ts';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;

/** Each catalog event (× order type where it concerns orders) and the sandbox flow that sends it. */
const COVERED_BY: Record<string, string> = {
  'receiver.kyc_approved': 'POST /sandbox/receivers/{id}/kyc {decision: APPROVE}',
  'receiver.kyc_rejected': 'POST /sandbox/receivers/{id}/kyc {decision: REJECT, reason}',
  'order.payment_received PAYIN': 'a PAYIN paid with POST /sandbox/orders/{id}/pix-payment',
  'order.completed PAYIN': 'the paid PAYIN; the worker transfers the tokens',
  'order.refunding PAYIN': 'a PAYIN whose transfer fails (sandbox fail CHAIN_TRANSFER), then paid',
  'order.refunded PAYIN': 'that PAYIN; the sandbox bank returns the PIX',
  'order.failed PAYIN': 'a PAYIN whose transfer and refund fail (failure-injections CHAIN_TRANSFER, PIX_REFUND)',
  'order.deposit_received PAYOUT': 'a PAYOUT funded with POST /sandbox/orders/{id}/deposit',
  'order.processing PAYOUT': 'the funded PAYOUT; the worker queues the PIX',
  'order.pix_sending PAYOUT': 'the funded PAYOUT; the worker sends the PIX',
  'order.completed PAYOUT': 'the funded PAYOUT; the sandbox bank confirms the PIX',
  'order.failed PAYOUT': 'a funded PAYOUT whose PIX the receiving bank refuses (sandbox fail PIX_PAYOUT)',
  'order.disputed PAYIN': 'POST /sandbox/orders/{id}/med-claim on a paid PAYIN',
  'dispute.resolved PAYIN': 'POST /sandbox/disputes/{id}/decision {outcome: ACCEPTED}',
  'dispute.updated PAYIN': 'the accepted claim: its MED return settles (after dispute.resolved)',
  'order.created PAYIN': 'POST /sandbox/receivers/{id}/standing-charges/{chargeId}/pix-payment: a PIX paid to a standing charge (issue 43)',
  'order.created PAYOUT': 'recorded for an API PAYOUT as if a standing instrument had made it, until that flow exists (issue 43)',
  'webhook.test': 'POST /webhook/endpoints/{id}/test',
  'webhook.endpoint_disabled': 'a second endpoint answering 410 Gone to its test ping',
};

type Catalog = Array<{ name: string; orderTypes: string[] | null }>;
type Document = { webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>; components: Json };

const keyOf = (catalog: Catalog, body: Json) => (catalog.find((entry) => entry.name === body.event)?.orderTypes ? `${body.event} ${body.type}` : String(body.event));

describe('webhook payloads against the OpenAPI webhooks section', () => {
  const t = ordersTest();
  let receivers: Receiver[] = [];
  afterAll(() => Promise.all(receivers.map((receiver) => receiver.close())));

  const sandbox = (who: TestMerchant, order: Json, action: string, body: Json = {}) => t.call('POST', `/sandbox/orders/${order.id}/${action}`, who, body);

  /** Runs delivery passes until the receiver has got nothing new for two passes in a row. */
  async function deliverAll(receiver: Receiver) {
    let quiet = 0;
    for (let i = 0; i < 60 && quiet < 2; i++) {
      const before = receiver.requests.length;
      await t.ctx.app.services.webhooks.runDeliveryPass();
      quiet = receiver.requests.length === before ? quiet + 1 : 0;
    }
  }

  /** Every flow of COVERED_BY, for one merchant. */
  async function driveEveryFlow(merchant: TestMerchant, gone: Json) {
    for (const decision of [{ decision: 'APPROVE' }, { decision: 'REJECT', reason: 'document unreadable' }]) {
      const receiver = await t.pendingReceiver(merchant);
      expect((await t.call('POST', `/sandbox/receivers/${receiver.id}/kyc`, merchant, decision)).statusCode).toBe(200);
    }
    const receiver = await t.activeReceiver(merchant);
    const payin = (amountBrl: number) => t.payin(merchant, { receiverId: receiver.id, amountBrl });
    const payout = (amountCrypto: number) => t.payout(merchant, { receiverId: receiver.id, amountCrypto, sourceToken: 'USDC' });

    await sandbox(merchant, await payin(11), 'pix-payment');
    const refunded = await payin(12);
    await sandbox(merchant, refunded, 'fail', { step: 'CHAIN_TRANSFER', reason: 'account frozen' });
    await sandbox(merchant, refunded, 'pix-payment');
    const failed = await payin(13);
    for (const step of ['CHAIN_TRANSFER', 'PIX_REFUND']) expect((await sandbox(merchant, failed, 'failure-injections', { step })).statusCode).toBe(201);
    await sandbox(merchant, failed, 'pix-payment');
    await sandbox(merchant, await payout(2), 'deposit');
    const refused = await payout(3);
    await sandbox(merchant, refused, 'deposit');
    // Queue and send the PIX, so the receiving bank can refuse it before it settles.
    await t.ctx.app.services.orderSteps.runDuePass();
    await t.ctx.app.services.orderSteps.runDuePass();
    await sandbox(merchant, refused, 'fail', { step: 'PIX_PAYOUT', reason: 'key not found' });
    await t.drive();

    // A MED claim on a paid PAYIN whose tokens have not left: held, accepted, returned through the order.
    const claimed = await payin(15);
    await sandbox(merchant, claimed, 'pix-payment');
    const dispute = (await sandbox(merchant, claimed, 'med-claim')).json();
    expect((await t.call('POST', `/sandbox/disputes/${dispute.id}/decision`, merchant, { outcome: 'ACCEPTED' })).statusCode).toBe(200);
    await t.drive();

    // order.created PAYIN: a PIX paid to a standing charge makes its order (issue 43).
    const standing = (await t.call('POST', `/receivers/${receiver.id}/standing-charges`, merchant, { amountBrl: '16.00' })).json() as Json;
    expect((await t.call('POST', `/sandbox/receivers/${receiver.id}/standing-charges/${standing.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
    await t.drive();
    for (const order of [await payout(4)]) {
      const row = await t.ctx.database.db.selectFrom('orders').select(ORDER_COLUMNS).where('id', '=', order.id).executeTakeFirstOrThrow();
      await inTransaction(t.ctx.database.db, (trx) => recordOrderCreated(trx, row, { kind: 'PAYOUT_BATCH', id: newId() }, new Date()));
    }

    const ping = (endpoint: Json) => t.call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant, {});
    expect((await ping(gone)).statusCode).toBe(202);
    return { dispute, ping };
  }

  it('delivers every catalog event, each body valid against its closed schema, and no other', async () => {
    const merchant = await t.merchant();
    const [main, goneReceiver] = await Promise.all([startReceiver(), startReceiver()]);
    receivers = [main, goneReceiver];
    goneReceiver.respondWith(410);
    const endpoint = (await t.call('POST', '/webhook/endpoints', merchant, { url: main.url })).json();
    const gone = (await t.call('POST', '/webhook/endpoints', merchant, { url: goneReceiver.url, eventTypes: ['webhook.test'] })).json();
    expect(endpoint.secret && gone.secret).toBeTruthy();

    const { dispute, ping } = await driveEveryFlow(merchant, gone);
    await deliverAll(main);
    expect((await ping(endpoint)).statusCode).toBe(202);
    await deliverAll(main);

    const catalog = (await t.call('GET', '/webhook/events', merchant)).json().data as Catalog;
    const document = (await t.ctx.app.inject({ url: '/api/v1/openapi.json' })).json() as Document;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: document.components });
    expect(Object.keys(document.webhooks)).toEqual(catalog.map((entry) => entry.name));
    const validators = new Map(
      Object.entries(document.webhooks).map(([name, item]) => [name, ajv.compile({ $ref: `openapi.json${item.post.requestBody.content['application/json'].schema.$ref}` })]),
    );

    const signedAt = (request: ReceivedRequest) => new Date(Number(request.headers['webhook-timestamp']) * 1000);
    const bodies = main.requests.map((request) => verify(endpoint.secret, request, signedAt(request)) as Json);
    const covered = new Set<string>();
    for (const body of bodies) {
      const validate = validators.get(body.event)!;
      expect(validate, `${body.event} is in the document`).toBeDefined();
      expect(validate(body), `${keyOf(catalog, body)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(validate({ ...body, unexpected: 1 }), `${body.event} refuses an extra field`).toBe(false);
      for (const field of Object.keys(body)) {
        const { [field]: _left, ...without } = body;
        expect(validate(without), `${body.event} refuses a body without ${field}`).toBe(false);
      }
      covered.add(keyOf(catalog, body));
    }

    // The table covers the catalog exactly, and every row of it was delivered.
    const expected = catalog.flatMap((entry) => (entry.orderTypes ? entry.orderTypes.map((type) => `${entry.name} ${type}`) : [entry.name]));
    expect(Object.keys(COVERED_BY).sort(), 'COVERED_BY lists each catalog event (× order type)').toEqual(expected.sort());
    const missing = expected.filter((key) => !covered.has(key));
    expect(missing, `not delivered: ${missing.map((key) => `${key} (${COVERED_BY[key]})`).join('; ')}`).toEqual([]);
    console.info(`webhook contract: ${covered.size} catalog events (× order type) delivered and valid: ${[...covered].sort().join(', ')}`);

    // The claim's events are numbered in the order they were recorded; the return settles last.
    const claimEvents = bodies.filter((body) => body.disputeId === dispute.id);
    const bySequence = claimEvents.toSorted((a, b) => a.sequence - b.sequence);
    expect(bySequence.map((body) => [body.sequence, body.event])).toEqual([
      [1, 'order.disputed'],
      [2, 'dispute.resolved'],
      [3, 'dispute.updated'],
    ]);
    expect(bySequence.map((body) => body.returnStatus)).toEqual([null, 'PENDING', 'RETURNED']);
    expect(bodies.find((body) => body.event === 'order.pix_sending')).toHaveProperty('pspTransactionId');
  }, 120_000);
});
