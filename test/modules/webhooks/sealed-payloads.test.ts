/**
 * Personal data in the outbox's payloads (issue 38, docs/decisions/0026-personal-data-sealed-at-rest.md,
 * src/platform/event-payload-sealing.ts): a PAYOUT's events hold its PIX key sealed in the raw
 * `events` rows; the merchant's endpoint receives it clear, signed as before; the delivery log, a
 * redelivery and the timeline read them. An event from before (its PIX key clear) is delivered as
 * recorded, sealed by the pass at start, and redelivered byte for byte the same.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { randomCpf } from '../../helpers/documents.ts';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';
import { type ReceivedRequest, verify, webhooksFixture } from './helpers.ts';

describe('personal data in event payloads', () => {
  const t = ordersTest();
  const { newReceiver, closeReceivers, createEndpoint, pass, deliveries } = webhooksFixture(() => t.ctx);
  afterAll(() => closeReceivers());
  const db = () => t.ctx.database.db;
  /** The merchant's raw events, each payload as the database holds it (text). */
  const rawEvents = async (merchant: TestMerchant) =>
    (await sql<{ event_type: string; text: string; pix_key: string | null }>`select event_type, payload::text as text, payload ->> 'pixKey' as pix_key from events where merchant_id = ${merchant.merchantId} order by created_at, id`.execute(db())).rows;
  /** Delivery passes until the endpoint got `count` requests (one delivery per order at a time: each pass sends the next). */
  const passUntil = async (requests: ReceivedRequest[], count: number) => {
    for (let i = 0; i < 20 && requests.length < count; i += 1) await pass();
    expect(requests).toHaveLength(count);
    return requests;
  };
  const bodiesWith = (requests: ReceivedRequest[], value: string) => requests.filter((request) => request.body.includes(value));

  it('a PAYOUT’s events hold its PIX key sealed; the endpoint receives it clear and signed; the log, a redelivery and the timeline read them', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const hook = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: hook.url });
    // The receiver's own CPF as its key (the merchant's destination policy: RECEIVER_ONLY).
    const pixKey = receiver.document as string;
    const created = await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC', pixKey, pixKeyType: 'CPF', recipientName: 'Destinatária' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    await t.call('POST', `/sandbox/orders/${id}/deposit`, merchant, {});
    await t.drive();
    expect((await t.call('GET', `/orders/${id}`, merchant)).json()).toMatchObject({ status: 'COMPLETED', pixKey });

    // At rest: no event holds the key in clear; the three naming it hold it sealed, and the other keys stay queryable.
    const raw = await rawEvents(merchant);
    expect(raw.map((row) => row.text).join('\n')).not.toContain(pixKey);
    const naming = raw.filter((row) => row.pix_key !== null);
    // The order's events (the receiver's KYC event came before the endpoint: never sent to it).
    const ofOrder = raw.filter((row) => row.text.includes(id)).length;
    expect(naming.map((row) => row.event_type)).toEqual(['order.processing', 'order.pix_sending', 'order.completed']);
    for (const row of naming) expect(row.pix_key).toMatch(/^pd1:v1:/);

    // Sent: clear, verifying under the endpoint's secret.
    const sent = bodiesWith(await passUntil(hook.requests, ofOrder), id);
    const named = sent.map((request) => verify(endpoint.secret, request, t.clock.now())).filter((payload) => 'pixKey' in payload);
    expect(named.map((payload) => payload.event)).toEqual(['order.processing', 'order.pix_sending', 'order.completed']);
    for (const payload of named) expect(payload.pixKey).toBe(pixKey);

    // The log shows the bodies as sent.
    const log = await deliveries(merchant, `?orderId=${id}`);
    const logged = log.data.map((delivery) => delivery.payload as Json).filter((payload) => 'pixKey' in payload);
    expect(logged).toHaveLength(3);
    for (const payload of logged) expect(payload.pixKey).toBe(pixKey);
    const completed = log.data.find((delivery) => delivery.event === 'order.completed')!;
    const first = sent.find((request) => request.headers['webhook-id'] === completed.id)!;
    expect(completed.payload).toEqual(JSON.parse(first.body));

    // A redelivery answers it clear and sends the same bytes again.
    const redelivered = await t.call('POST', `/webhook/deliveries/${completed.id as string}/redeliver`, merchant);
    expect(redelivered.statusCode, redelivered.body).toBe(202);
    expect(redelivered.json().payload.pixKey).toBe(pixKey);
    const again = (await passUntil(hook.requests, ofOrder + 1)).filter((request) => request.headers['webhook-id'] === completed.id);
    expect(again).toHaveLength(2);
    expect(again[1]!.body).toBe(first.body);
    expect(verify(endpoint.secret, again[1]!, t.clock.now()).pixKey).toBe(pixKey);

    // The timeline reads the statuses the sealed payloads report (it shows no PIX key), and each delivery.
    const timeline = await t.call('GET', `/orders/${id}/timeline`, merchant);
    expect(timeline.statusCode, timeline.body).toBe(200);
    const entries = timeline.json().entries as Json[];
    expect(entries.filter((entry) => entry.kind === 'STATUS').map((entry) => (entry.status as Json).event)).toEqual([null, 'order.deposit_received', 'order.processing', 'order.pix_sending', 'order.completed']);
    expect(entries.filter((entry) => entry.kind === 'WEBHOOK_DELIVERY')).toHaveLength(ofOrder);
    expect(timeline.body).not.toContain('pd1:');
  });

  it('an event from before (its PIX key clear) is delivered as recorded, sealed by the pass at start, and redelivered byte for byte the same', async () => {
    const merchant = await t.merchant();
    const hook = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: hook.url });
    const orderId = randomUUID();
    const pixKey = randomCpf();
    // As the outbox wrote it before: the payload whole in clear.
    const eventId = randomUUID();
    const payload = { event: 'order.completed', orderId, externalId: 'antes-1', type: 'PAYOUT', status: 'COMPLETED', timestamp: t.clock.now().toISOString(), amountBrl: 10.5, pixKey, pixEndToEndId: 'E'.padEnd(32, '0') };
    await db().insertInto('events').values({ id: eventId, merchant_id: merchant.merchantId, event_type: 'order.completed', payload: JSON.stringify(payload) }).execute();

    await pass();
    const [first] = await hook.waitFor(1);
    expect(verify(endpoint.secret, first!, t.clock.now())).toEqual({ ...payload, deliveryId: first!.headers['webhook-id'] });

    await t.ctx.buildApp(); // the sealing pass at start
    const row = await sql<{ text: string; pix_key: string }>`select payload::text as text, payload ->> 'pixKey' as pix_key from events where id = ${eventId}`.execute(db());
    expect(row.rows[0]!.text).not.toContain(pixKey);
    expect(row.rows[0]!.pix_key).toMatch(/^pd1:v1:/);

    const [logged] = (await deliveries(merchant, `?orderId=${orderId}`)).data;
    expect(logged!.payload).toEqual(JSON.parse(first!.body));
    expect((await t.call('POST', `/webhook/deliveries/${logged!.id as string}/redeliver`, merchant)).statusCode).toBe(202);
    await pass();
    const [, second] = await hook.waitFor(2);
    expect(second!.body).toBe(first!.body);
    expect(verify(endpoint.secret, second!, t.clock.now()).pixKey).toBe(pixKey);
  });
});
