/**
 * Webhook deliveries (POST /webhook/endpoints/{id}/test, GET /webhook/deliveries, redeliver,
 * rotate-secret): signed per Standard Webhooks and flat, retried on the schedule with one
 * deliveryId, failed at the end and redelivered by hand, never following redirects, fanned out
 * per matching endpoint, signed with both secrets during a rotation, and counted in metrics.
 */
import { Ajv } from 'ajv';
import { inTransaction } from '../../../src/platform/commit-signals.ts';
import addFormatsModule from 'ajv-formats';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../../src/platform/outbox.ts';
import { orderEventDefinitions } from '../../../src/modules/orders/events.ts';
import { receiverEventDefinitions } from '../../../src/modules/receivers/events.ts';
import { deliveryMetrics } from '../../../src/modules/webhooks/metrics.ts';
import { createWebhooksService, ROTATION_OVERLAP_MS } from '../../../src/modules/webhooks/service.ts';
import { type TestContext, createTestContext } from '../../helpers/app.ts';
import { UNKNOWN_ID } from '../../helpers/factories.ts';
import { type Receiver, testClock, verify, webhooksFixture } from './helpers.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let ctx: TestContext;
const { closeReceivers, newReceiver, call, createEndpoint, decideKyc, pass, deliveries } = webhooksFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0,0' });
});
afterAll(async () => {
  await closeReceivers();
  await ctx?.close();
});

describe('delivery', () => {
  it('delivers webhook.test signed per Standard Webhooks, flat, deliveryId = webhook-id', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    const test = await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant);
    expect(test.statusCode).toBe(202);
    expect(test.json()).toMatchObject({ endpointId: endpoint.id, event: 'webhook.test', status: 'PENDING', attemptCount: 0, attempts: [] });

    await pass();
    const [request] = await receiver.waitFor(1);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toMatch(/^crypto-brl-exchange-webhooks\//);
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    const payload = verify(endpoint.secret, request!);
    expect(payload).toEqual({
      event: 'webhook.test',
      endpointId: endpoint.id,
      message: expect.any(String),
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      deliveryId: test.json().id,
    });
    expect(payload.deliveryId).toBe(request!.headers['webhook-id']);
    // Tampered body, wrong secret, stale header: all refused.
    expect(() => verify(endpoint.secret, { ...request!, body: request!.body.replace('webhook.test', 'webhook.tesT') })).toThrow();
    const other = await createEndpoint(merchant, { url: receiver.url });
    expect(() => verify(other.secret, request!)).toThrow(/signature/);
    expect(() => verify(endpoint.secret, { ...request!, headers: { ...request!.headers, 'webhook-id': UNKNOWN_ID } })).toThrow();

    // The published schema of webhook.test matches what was sent.
    const catalog = (await call('GET', '/webhook/events', merchant)).json().data as Array<{ name: string; payload: object }>;
    const ajv = addFormats(new Ajv({ strict: false }));
    expect(ajv.validate(catalog.find((entry) => entry.name === 'webhook.test')!.payload, payload)).toBe(true);

    const log = await deliveries(merchant, `?endpointId=${endpoint.id}`);
    expect(log.total).toBe(1);
    expect(log.data[0]).toMatchObject({ id: payload.deliveryId, status: 'SUCCEEDED', attemptCount: 1, lastStatusCode: 200, nextAttemptAt: null, payload });
    expect(log.data[0]!.attempts).toEqual([
      { number: 1, attemptedAt: expect.any(String), succeeded: true, statusCode: 200, latencyMs: expect.any(Number), error: null, responseBody: 'ok' },
    ]);
  });

  it('retries a 500 with the same deliveryId: the third attempt succeeds; the log shows all three', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    receiver.respondWith(500, 500);
    const receiverId = await decideKyc(merchant, 'APPROVE');

    for (let i = 0; i < 3; i++) await pass();
    const requests = await receiver.waitFor(3);
    expect(requests).toHaveLength(3);
    const payloads = requests.map((request) => verify(endpoint.secret, request));
    const ids = new Set(requests.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const payload of payloads) expect(payload.deliveryId).toBe([...ids][0]);
    expect(payloads[2]).toEqual({
      event: 'receiver.kyc_approved',
      receiverId,
      type: 'PF',
      name: 'Maria Silva',
      email: 'maria@example.com',
      kycStatus: 'APPROVED',
      kycReviewedAt: expect.any(String),
      timestamp: expect.any(String),
      deliveryId: [...ids][0],
    });

    const [delivery] = (await deliveries(merchant)).data;
    expect(delivery).toMatchObject({ id: [...ids][0], event: 'receiver.kyc_approved', status: 'SUCCEEDED', attemptCount: 3 });
    expect(delivery!.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([500, 500, 200]);
    expect(delivery!.attempts[0]).toMatchObject({ succeeded: false, error: 'HTTP 500', responseBody: 'failure 500' });
    await pass();
    expect(receiver.requests).toHaveLength(3);
  });

  it('fails after the last retry; redeliver sends it once more with the same deliveryId', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    receiver.respondWith(500, 503, 502, 500);
    const test = (await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant)).json();
    for (let i = 0; i < 4; i++) await pass();
    expect(receiver.requests).toHaveLength(3); // the first attempt and the schedule's two retries
    let [delivery] = (await deliveries(merchant, '?status=FAILED')).data;
    expect(delivery).toMatchObject({ id: test.id, status: 'FAILED', attemptCount: 3, nextAttemptAt: null, lastStatusCode: 502 });

    const redelivered = await call('POST', `/webhook/deliveries/${test.id}/redeliver`, merchant);
    expect(redelivered.statusCode).toBe(202);
    expect(redelivered.json()).toMatchObject({ id: test.id, status: 'PENDING' });
    await pass(); // answered 500: a manual redelivery is one attempt, no retries
    await pass();
    expect(receiver.requests).toHaveLength(4);
    [delivery] = (await deliveries(merchant)).data;
    expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 4 });

    await call('POST', `/webhook/deliveries/${test.id}/redeliver`, merchant);
    await pass();
    expect(receiver.requests).toHaveLength(5);
    expect(new Set(receiver.requests.map((request) => verify(endpoint.secret, request).deliveryId))).toEqual(new Set([test.id]));
    [delivery] = (await deliveries(merchant)).data;
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 5 });
    expect(delivery!.attempts.map((attempt: { number: number }) => attempt.number)).toEqual([1, 2, 3, 4, 5]);
  });

  it('does not follow redirects and times out slow receivers', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    receiver.respondWith(302);
    await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant);
    await pass();
    expect(receiver.requests).toHaveLength(1);
    const [delivery] = (await deliveries(merchant)).data;
    expect(delivery!.attempts[0]).toMatchObject({ succeeded: false, statusCode: 302, error: expect.stringMatching(/redirect/) });

    receiver.respondWith(0); // never answers
    const service = createWebhooksService({
      db: ctx.database.db,
      clock: testClock(),
      settings: { ...ctx.config.webhooks, timeoutMs: 200 },
      secretKey: ctx.config.webhookSecretKey,
      personalData: ctx.app.services.personalData,
      events: [...orderEventDefinitions(), ...receiverEventDefinitions()],
    });
    await service.runDeliveryPass();
    const [again] = (await deliveries(merchant)).data;
    expect(again!.attempts[1]).toMatchObject({ succeeded: false, statusCode: null, error: 'timeout after 200 ms' });
    expect(again!.attempts[1].latencyMs).toBeGreaterThanOrEqual(150);
    expect(again!.attempts[1].latencyMs).toBeLessThan(2000);
    await call('DELETE', `/webhook/endpoints/${endpoint.id}`, merchant);
  });

  it('fans out each event once per matching endpoint created before it, honouring filters', async () => {
    const merchant = await ctx.createMerchant();
    const all = await newReceiver();
    const rejectedOnly = await newReceiver();
    const disabled = await newReceiver();
    const late = await newReceiver();
    await createEndpoint(merchant, { url: all.url });
    await createEndpoint(merchant, { url: rejectedOnly.url, eventTypes: ['receiver.kyc_rejected'] });
    await createEndpoint(merchant, { url: disabled.url, enabled: false });

    await decideKyc(merchant, 'APPROVE');
    await decideKyc(merchant, 'REJECT');
    await createEndpoint(merchant, { url: late.url }); // after both events
    // Two fan-outs at once (two workers) still make one delivery per (event, endpoint).
    const engine = ctx.app.services.webhooks.engine;
    await Promise.all([engine.fanOut(), engine.fanOut()]);
    await pass();

    const events = (receiver: Receiver) => receiver.requests.map((request) => JSON.parse(request.body).event).sort();
    expect(events(all)).toEqual(['receiver.kyc_approved', 'receiver.kyc_rejected']);
    expect(events(rejectedOnly)).toEqual(['receiver.kyc_rejected']);
    expect(events(disabled)).toEqual([]);
    expect(events(late)).toEqual([]);
    const rejected = JSON.parse(rejectedOnly.requests[0]!.body);
    expect(rejected).toMatchObject({ kycStatus: 'REJECTED', kycRejectionReason: 'Blurry selfie' });

    const log = await deliveries(merchant, '?event=receiver.kyc_rejected&status=SUCCEEDED');
    expect(log.total).toBe(2);
    expect((await deliveries(merchant)).total).toBe(3);
    const page = await deliveries(merchant, '?limit=2&page=2');
    expect(page).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page.data).toHaveLength(1);
  });

  it('filters the log by order id', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    await createEndpoint(merchant, { url: receiver.url });
    const orderId = '0190a0e0-1111-7000-8000-000000000001';
    await inTransaction(ctx.database.db, (trx) =>
      recordEvent(trx, {
        merchantId: merchant.merchantId,
        event: 'order.payment_received',
        payload: { orderId, externalId: 'ext-1', type: 'PAYIN', status: 'PAYMENT_RECEIVED', timestamp: new Date().toISOString(), amountBrl: 100.5, pixEndToEndId: 'E'.padEnd(32, '0') },
      }),
    );
    await decideKyc(merchant, 'APPROVE');
    await pass();
    const log = await deliveries(merchant, `?orderId=${orderId}`);
    expect(log.total).toBe(1);
    expect(log.data[0]).toMatchObject({ orderId, event: 'order.payment_received' });
    expect(JSON.parse(receiver.requests.find((request) => request.body.includes(orderId))!.body)).toMatchObject({ amountBrl: 100.5, orderId });
  });

  it('signs with both secrets during the 24 h rotation overlap, then with the new one only', async () => {
    const clock = testClock();
    const worker = createWebhooksService({
      db: ctx.database.db,
      clock,
      settings: ctx.config.webhooks,
      secretKey: ctx.config.webhookSecretKey,
      personalData: ctx.app.services.personalData,
      events: [...orderEventDefinitions(), ...receiverEventDefinitions()],
    });
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    const rotated = await call('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret`, merchant);
    expect(rotated.statusCode).toBe(200);
    const { secret: newSecret, previousSecretExpiresAt } = rotated.json();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    expect(Date.parse(previousSecretExpiresAt) - Date.now()).toBeGreaterThan(ROTATION_OVERLAP_MS - 60_000);
    expect((await call('GET', `/webhook/endpoints/${endpoint.id}`, merchant)).json().previousSecretExpiresAt).toBe(previousSecretExpiresAt);

    await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant);
    await worker.runDeliveryPass();
    const during = receiver.requests[0]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(endpoint.secret, during).event).toBe('webhook.test');
    expect(verify(newSecret, during).event).toBe('webhook.test');

    clock.advance(ROTATION_OVERLAP_MS + 60_000);
    await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant);
    await worker.runDeliveryPass();
    const after = receiver.requests[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(newSecret, after, clock.now()).event).toBe('webhook.test');
    expect(() => verify(endpoint.secret, after, clock.now())).toThrow(/signature/);

    // Two rotations within the overlap: the current and one previous secret, never three.
    const third = (await call('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret`, merchant)).json().secret;
    const fourth = (await call('POST', `/webhook/endpoints/${endpoint.id}/rotate-secret`, merchant)).json().secret;
    await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant);
    await pass();
    const last = receiver.requests[2]!;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(fourth, last).event).toBe('webhook.test');
    expect(verify(third, last).event).toBe('webhook.test');
    expect(() => verify(newSecret, last)).toThrow();
  });

  it('counts attempts, failures and latency in the metrics registry', async () => {
    const registry = new Registry();
    const metrics = deliveryMetrics(registry);
    expect(deliveryMetrics(registry)).toBe(metrics);
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    receiver.respondWith(500);
    await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant);
    await ctx.app.services.webhooks.runDeliveryPass({ metrics });
    await ctx.app.services.webhooks.runDeliveryPass({ metrics });
    // (Counts are at least ours: a pass also takes any other test's due deliveries.)
    const value = async (metric: { get(): Promise<{ values: Array<{ value: number; labels: Record<string, unknown>; metricName?: string }> }> }, labels: Record<string, string>) =>
      (await metric.get()).values.find((entry) => Object.entries(labels).every(([key, v]) => entry.labels[key] === v))?.value ?? 0;
    expect(await value(metrics.attempts, { event: 'webhook.test', outcome: 'failure' })).toBeGreaterThanOrEqual(1);
    expect(await value(metrics.attempts, { event: 'webhook.test', outcome: 'success' })).toBeGreaterThanOrEqual(1);
    expect(await value(metrics.failures, { event: 'webhook.test' })).toBeGreaterThanOrEqual(1);
    const text = await registry.metrics();
    expect(text).toMatch(/webhook_delivery_attempt_duration_seconds_count\{event="webhook.test"\} [1-9]/);
    expect(text).toMatch(/webhook_deliveries_pending \d+/);
    expect(receiver.requests).toHaveLength(2);
  });
});
