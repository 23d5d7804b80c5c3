/**
 * GET /webhook/events: the catalog of the ten spec events and webhook.test, generated from the
 * emitters' definitions, with payload schemas that what the emitters build validates against.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEventDefinitions } from '../../../src/modules/orders/events.ts';
import { kycDecisionEvent, RECEIVER_EVENTS } from '../../../src/modules/receivers/events.ts';
import { type TestContext, createTestContext } from '../../helpers/app.ts';
import { type Json, UNKNOWN_ID } from '../../helpers/factories.ts';
import { EXTENSION_EVENTS, SPEC_EVENTS, webhooksFixture } from './helpers.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let ctx: TestContext;
const { closeReceivers, call } = webhooksFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0,0' });
});
afterAll(async () => {
  await closeReceivers();
  await ctx?.close();
});

describe('GET /webhook/events', () => {
  it('lists the ten spec events, webhook.test and webhook.endpoint_disabled, generated from the emitters’ definitions', async () => {
    const merchant = await ctx.createMerchant();
    const response = await call('GET', '/webhook/events', merchant);
    expect(response.statusCode).toBe(200);
    const catalog = response.json().data as Json[];
    const names = catalog.map((entry) => entry.name);
    expect(names).toEqual([...SPEC_EVENTS, ...EXTENSION_EVENTS, 'webhook.test', 'webhook.endpoint_disabled']);

    // Every definition the emitters use appears (both order.completed shapes under one name).
    for (const definition of orderEventDefinitions()) expect(names).toContain(definition.name);
    for (const name of Object.keys(RECEIVER_EVENTS)) expect(names).toContain(name);

    const byName = Object.fromEntries(catalog.map((entry) => [entry.name, entry]));
    expect(byName['order.payment_received']).toMatchObject({ category: 'order', orderTypes: ['PAYIN'], status: 'PAYMENT_RECEIVED', statusField: 'status' });
    expect(Object.keys(byName['order.payment_received'].payload.properties)).toEqual(
      expect.arrayContaining(['event', 'orderId', 'externalId', 'type', 'status', 'timestamp', 'deliveryId', 'amountBrl', 'pixEndToEndId']),
    );
    expect(byName['order.pix_sending'].payload.properties).toHaveProperty('pspTransactionId');
    expect(byName['order.failed'].orderTypes).toEqual(['PAYIN', 'PAYOUT']);
    const completed = byName['order.completed'];
    expect(completed.orderTypes).toEqual(['PAYIN', 'PAYOUT']);
    expect(completed.payload.oneOf).toHaveLength(2);
    expect(Object.keys(completed.payload.oneOf[0].properties)).toEqual(expect.arrayContaining(['amountToken', 'targetToken', 'destinationWallet', 'txHash']));
    expect(Object.keys(completed.payload.oneOf[1].properties)).toEqual(expect.arrayContaining(['pixKey', 'pixEndToEndId']));
    expect(byName['receiver.kyc_approved']).toMatchObject({ category: 'receiver', orderTypes: null, status: 'APPROVED', statusField: 'kycStatus' });
    expect(byName['receiver.kyc_rejected'].payload.required).toContain('kycRejectionReason');
    expect(byName['webhook.test']).toMatchObject({ category: 'webhook', status: null });

    // What the receiver emitter builds validates against the published schema.
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    const row = { id: '0190a0e0-0000-7000-8000-000000000001', merchant_id: merchant.merchantId, person_type: 'PJ' as const, name: 'Acme', email: 'a@acme.test' };
    for (const decision of [{ approved: true as const }, { approved: false as const, reason: 'Blurry' }]) {
      const event = kycDecisionEvent(row, decision, new Date());
      const payload = { event: event.event, ...event.payload, deliveryId: UNKNOWN_ID };
      const validate = ajv.compile(byName[event.event].payload);
      expect(validate(payload), JSON.stringify(validate.errors)).toBe(true);
      // Exactly the published fields, nothing else.
      expect(Object.keys(payload).sort()).toEqual(Object.keys(byName[event.event].payload.properties).sort());
    }
    // The order.completed shapes are told apart by `type`.
    const completedCheck = ajv.compile(completed.payload);
    const payinShape = Object.fromEntries(completed.payload.oneOf[0].required.map((key: string) => [key, key === 'type' ? 'PAYOUT' : 'x']));
    expect(completedCheck(payinShape)).toBe(false);
  });
});
