import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEventDefinitions } from '../../src/modules/orders/events.ts';
import { kycDecisionEvent, RECEIVER_EVENTS, receiverEventDefinitions } from '../../src/modules/receivers/events.ts';
import { deliveryMetrics } from '../../src/modules/webhooks/metrics.ts';
import { recordEvent } from '../../src/db/outbox.ts';
import { webhooksRepo } from '../../src/modules/webhooks/repo.ts';
import { createWebhooksService, ROTATION_OVERLAP_MS } from '../../src/modules/webhooks/service.ts';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../helpers/app.ts';
import { randomCpf } from '../helpers/documents.ts';
import { type Receiver, SPEC_EVENTS, startReceiver, testClock, verify } from './webhooks-helpers.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, asserted field by field
type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const UNKNOWN_ID = '00000000-0000-7000-8000-000000000000';

describe('webhooks', () => {
  let ctx: TestContext;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0,0' });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await ctx.close();
  });

  const newReceiver = async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    return receiver;
  };

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: TestMerchant, payload?: unknown) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const createEndpoint = async (who: TestMerchant, body: Record<string, unknown>) => {
    const response = await call('POST', '/webhook/endpoints', who, body);
    if (response.statusCode !== 201) throw new Error(response.body);
    return response.json() as { id: string; secret: string; url: string; eventTypes: string[] | null };
  };

  /** A receiver (end customer) of the merchant, with its KYC decided in sandbox: emits receiver.kyc_*. */
  const decideKyc = async (who: TestMerchant, decision: 'APPROVE' | 'REJECT') => {
    const created = await call('POST', '/receivers', who, { type: 'PF', document: randomCpf(), name: 'Maria Silva', email: 'maria@example.com' });
    if (created.statusCode !== 201) throw new Error(created.body);
    const receiverId = created.json().id as string;
    const decided = await call('POST', `/sandbox/receivers/${receiverId}/kyc`, who, decision === 'APPROVE' ? { decision } : { decision, reason: 'Blurry selfie' });
    if (decided.statusCode !== 200) throw new Error(decided.body);
    return receiverId;
  };

  const pass = () => ctx.app.services.webhooks.runDeliveryPass();
  const deliveries = async (who: TestMerchant, query = '') => {
    const response = await call('GET', `/webhook/deliveries${query}`, who);
    if (response.statusCode !== 200) throw new Error(response.body);
    return response.json() as { data: Json[]; total: number; page: number; limit: number };
  };

  describe('GET /webhook/events', () => {
    it('lists the ten spec events and webhook.test, generated from the emitters’ definitions', async () => {
      const merchant = await ctx.createMerchant();
      const response = await call('GET', '/webhook/events', merchant);
      expect(response.statusCode).toBe(200);
      const catalog = response.json().data as Json[];
      const names = catalog.map((entry) => entry.name);
      expect(names).toEqual([...SPEC_EVENTS, 'webhook.test']);

      // Every definition the emitters use appears (both order.completed shapes under one name).
      for (const definition of orderEventDefinitions('sandbox')) expect(names).toContain(definition.name);
      for (const name of Object.keys(RECEIVER_EVENTS)) expect(names).toContain(name);

      const byName = Object.fromEntries(catalog.map((entry) => [entry.name, entry]));
      expect(byName['order.payment_received']).toMatchObject({ category: 'order', orderTypes: ['PAYIN'], status: 'PAYMENT_RECEIVED', statusField: 'status' });
      expect(Object.keys(byName['order.payment_received'].payload.properties)).toEqual(
        expect.arrayContaining(['event', 'orderId', 'externalId', 'type', 'status', 'timestamp', 'deliveryId', 'amountBrl', 'pixEndToEndId']),
      );
      expect(byName['order.pix_sending'].payload.properties).toHaveProperty('sandboxTransactionId');
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

    it('requires credentials', async () => {
      expectErrorBody(await ctx.app.inject({ method: 'GET', url: '/api/v1/webhook/events' }), 401, 'UNAUTHORIZED');
    });
  });

  describe('endpoints', () => {
    it('creates an endpoint with a secret shown once, stored encrypted', async () => {
      const merchant = await ctx.createMerchant();
      const receiver = await newReceiver();
      const response = await call('POST', '/webhook/endpoints', merchant, { url: receiver.url, description: 'orders', eventTypes: ['receiver.kyc_approved'] });
      expect(response.statusCode).toBe(201);
      const created = response.json();
      expect(created).toMatchObject({ url: receiver.url, description: 'orders', eventTypes: ['receiver.kyc_approved'], enabled: true, previousSecretExpiresAt: null });
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

      const list = await call('GET', '/webhook/endpoints', merchant);
      expect(list.json().data).toHaveLength(1);
      expect(list.body).not.toContain(created.secret);
      expect(list.json().data[0]).not.toHaveProperty('secret');
      const one = await call('GET', `/webhook/endpoints/${created.id}`, merchant);
      expect(one.body).not.toContain(created.secret);

      const stored = await ctx.database.db.selectFrom('webhook_endpoint_secrets').selectAll().where('endpoint_id', '=', created.id).execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]!.secret_ciphertext).not.toContain(created.secret.slice(6, 20));
    });

    it('updates and deletes; a deleted endpoint is gone and its pending deliveries end FAILED', async () => {
      const merchant = await ctx.createMerchant();
      const receiver = await newReceiver();
      const endpoint = await createEndpoint(merchant, { url: receiver.url });
      const patched = await call('PATCH', `/webhook/endpoints/${endpoint.id}`, merchant, { eventTypes: ['webhook.test'], description: null, enabled: false });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({ eventTypes: ['webhook.test'], description: null, enabled: false });
      expectErrorBody(await call('PATCH', `/webhook/endpoints/${endpoint.id}`, merchant, {}), 400, 'VALIDATION_ERROR');
      expectErrorBody(await call('PATCH', `/webhook/endpoints/${endpoint.id}`, merchant, { secret: 'x' }), 400, 'VALIDATION_ERROR');

      // Disabled: a test delivery waits (not attempted) ...
      const test = await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant);
      expect(test.statusCode).toBe(202);
      await pass();
      expect(receiver.requests).toHaveLength(0);
      // ... and deleting fails it.
      const deleted = await call('DELETE', `/webhook/endpoints/${endpoint.id}`, merchant);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expectErrorBody(await call('GET', `/webhook/endpoints/${endpoint.id}`, merchant), 404, 'NOT_FOUND');
      expectErrorBody(await call('DELETE', `/webhook/endpoints/${endpoint.id}`, merchant), 404, 'NOT_FOUND');
      expect((await call('GET', '/webhook/endpoints', merchant)).json().data).toEqual([]);
      const log = await deliveries(merchant);
      expect(log.data[0]).toMatchObject({ id: test.json().id, status: 'FAILED', lastError: 'endpoint deleted', attemptCount: 0 });
      expectErrorBody(await call('POST', `/webhook/deliveries/${test.json().id}/redeliver`, merchant), 409, 'CONFLICT');
    });

    it('validates the body: url, event names, unknown fields', async () => {
      const merchant = await ctx.createMerchant();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ url: 'not a url' }, 'body.url'],
        [{ url: 'ftp://127.0.0.1/x' }, 'body.url'],
        [{ url: 'http://user:pw@127.0.0.1/x' }, 'body.url'],
        [{ url: 'http://127.0.0.1/x', eventTypes: ['order.unknown'] }, 'body.eventTypes.0'],
        [{ url: 'http://127.0.0.1/x', eventTypes: [] }, 'body.eventTypes'],
        [{ url: 'http://127.0.0.1/x', secret: 'mine' }, 'body'],
      ];
      for (const [body, field] of cases) {
        const error = expectErrorBody(await call('POST', '/webhook/endpoints', merchant, body), 400, 'VALIDATION_ERROR');
        expect(Object.keys(error.details ?? {}).join(' ')).toContain(field);
      }
    });

    it('refuses SSRF targets by address, without resolving or connecting', async () => {
      const merchant = await ctx.createMerchant();
      const targets = [
        'http://10.0.0.1/x',
        'http://169.254.169.254/latest',
        'https://169.254.169.254/latest/meta-data/',
        'https://172.16.5.4/hook',
        'https://192.168.1.10/hook',
        'https://100.64.0.1/hook',
        'https://0.0.0.0/hook',
        'https://224.0.0.1/hook',
        'https://[fe80::1]/hook',
        'https://[fd12:3456::1]/hook',
        'https://[::ffff:10.0.0.1]/hook',
        'https://[::ffff:169.254.169.254]/hook',
        'https://[64:ff9b::a00:1]/hook',
        'https://[::]/hook',
      ];
      for (const url of targets) {
        const response = await call('POST', '/webhook/endpoints', merchant, { url });
        const error = expectErrorBody(response, 400, 'VALIDATION_ERROR');
        expect(error.details, url).toHaveProperty(['body.url']);
      }
      // Loopback is the development exception (WEBHOOK_ALLOW_HTTP, on outside production) ...
      expect((await call('POST', '/webhook/endpoints', merchant, { url: 'http://127.0.0.1:9/x' })).statusCode).toBe(201);
      // ... off in production-like settings, where https is required too.
      const strict = await ctx.buildApp({ WEBHOOK_ALLOW_HTTP: 'false' });
      // 0x7f000001 is 127.0.0.1, normalised by the URL parser before the check.
      for (const url of ['http://127.0.0.1:9/x', 'https://127.0.0.1:9/x', 'https://[::1]/x', 'https://0x7f000001/x', 'http://localhost:9/x']) {
        const refused = await strict.inject({ method: 'POST', url: '/api/v1/webhook/endpoints', headers: merchant.headers, payload: { url } });
        expect(expectErrorBody(refused, 400, 'VALIDATION_ERROR').details).toHaveProperty(['body.url']);
      }
      // WEBHOOK_ALLOW_PRIVATE_TARGETS lets private addresses through (https), never the metadata address.
      const privateNet = await ctx.buildApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ALLOW_HTTP: 'false' });
      const ok = await privateNet.inject({ method: 'POST', url: '/api/v1/webhook/endpoints', headers: merchant.headers, payload: { url: 'https://10.0.0.1/x' } });
      expect(ok.statusCode).toBe(201);
      const metadata = await privateNet.inject({
        method: 'POST',
        url: '/api/v1/webhook/endpoints',
        headers: merchant.headers,
        payload: { url: 'https://169.254.169.254/latest' },
      });
      expectErrorBody(metadata, 400, 'VALIDATION_ERROR');
    });

    it('resolves host names and judges every address; nothing is sent at registration', async () => {
      const resolved: string[] = [];
      const sent: string[] = [];
      const zone: Record<string, string[]> = {
        'internal.example': ['10.1.2.3'],
        'mixed.example': ['93.184.215.14', '192.168.0.5'],
        'public.example': ['93.184.215.14'],
        'rebind.example': ['::ffff:127.0.0.1'],
      };
      const service = createWebhooksService({
        db: ctx.database.db,
        clock: testClock(),
        settings: { ...ctx.config.webhooks, allowHttp: false },
        secretKey: ctx.config.webhookSecretKey,
        events: [...orderEventDefinitions('sandbox'), ...receiverEventDefinitions()],
        resolve: async (host) => {
          resolved.push(host);
          return (zone[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        },
        send: async (request) => {
          sent.push(request.url);
          throw new Error('no connection expected');
        },
      });
      const merchant = await ctx.createMerchant();
      const refusal = (url: string) => service.createEndpoint(merchant.merchantId, { url }).then(
        () => 'accepted',
        (err: { details?: Record<string, string> }) => err.details?.['body.url'],
      );
      expect(await refusal('https://internal.example/x')).toMatch(/private address \(10\.1\.2\.3\)/);
      expect(await refusal('https://mixed.example/x')).toMatch(/192\.168\.0\.5/);
      expect(await refusal('https://rebind.example/x')).toMatch(/loopback/);
      expect(await refusal('https://nowhere.example/x')).toBe('host does not resolve');
      expect(await refusal('http://public.example/x')).toBe('must use https');
      expect(await refusal('https://public.example/x')).toBe('accepted');
      expect(await refusal('https://10.0.0.1/x')).toMatch(/private/);
      expect(resolved).toEqual(['internal.example', 'mixed.example', 'rebind.example', 'nowhere.example', 'public.example', 'public.example']);
      expect(sent).toEqual([]);
    });

    it('keeps merchants apart: another merchant’s endpoint or delivery is 404', async () => {
      const a = await ctx.createMerchant('A');
      const b = await ctx.createMerchant('B');
      const receiver = await newReceiver();
      const endpoint = await createEndpoint(a, { url: receiver.url });
      const test = (await call('POST', `/webhook/endpoints/${endpoint.id}/test`, a)).json();
      for (const [method, url] of [
        ['GET', `/webhook/endpoints/${endpoint.id}`],
        ['PATCH', `/webhook/endpoints/${endpoint.id}`],
        ['DELETE', `/webhook/endpoints/${endpoint.id}`],
        ['POST', `/webhook/endpoints/${endpoint.id}/rotate-secret`],
        ['POST', `/webhook/endpoints/${endpoint.id}/test`],
        ['GET', `/webhook/deliveries/${test.id}`],
        ['POST', `/webhook/deliveries/${test.id}/redeliver`],
        ['GET', `/webhook/endpoints/${UNKNOWN_ID}`],
      ] as const) {
        expectErrorBody(await call(method, url, b, method === 'PATCH' ? { enabled: false } : undefined), 404, 'NOT_FOUND');
      }
      expect((await call('GET', '/webhook/endpoints', b)).json().data).toEqual([]);
      expect((await deliveries(b)).total).toBe(0);
      expect((await deliveries(b, `?endpointId=${endpoint.id}`)).total).toBe(0);
      expect((await deliveries(a)).total).toBe(1);
      // B's events never reach A's endpoint.
      await decideKyc(b, 'APPROVE');
      await pass();
      expect(receiver.requests.map((request) => JSON.parse(request.body).event)).toEqual(['webhook.test']);
    });
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
        events: [...orderEventDefinitions('sandbox'), ...receiverEventDefinitions()],
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
      expectErrorBody(await call('GET', '/webhook/deliveries?limit=101', merchant), 400, 'VALIDATION_ERROR');
      expectErrorBody(await call('GET', '/webhook/deliveries?event=nope', merchant), 400, 'VALIDATION_ERROR');
      expectErrorBody(await call('GET', '/webhook/deliveries?foo=1', merchant), 400, 'VALIDATION_ERROR');
      const page = await deliveries(merchant, '?limit=2&page=2');
      expect(page).toMatchObject({ total: 3, page: 2, limit: 2 });
      expect(page.data).toHaveLength(1);
    });

    it('filters the log by order id', async () => {
      const merchant = await ctx.createMerchant();
      const receiver = await newReceiver();
      await createEndpoint(merchant, { url: receiver.url });
      const orderId = '0190a0e0-1111-7000-8000-000000000001';
      await ctx.database.db.transaction().execute((trx) =>
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

    it('a delivery claimed by a worker that died is delivered by the next pass once its lease expires, exactly once', async () => {
      const clock = testClock();
      const worker = createWebhooksService({
        db: ctx.database.db,
        clock,
        settings: ctx.config.webhooks,
        secretKey: ctx.config.webhookSecretKey,
        events: [...orderEventDefinitions('sandbox'), ...receiverEventDefinitions()],
      });
      const merchant = await ctx.createMerchant();
      const receiver = await newReceiver();
      const endpoint = await createEndpoint(merchant, { url: receiver.url });
      const done = (await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant)).json();
      await worker.runDeliveryPass();
      expect(receiver.requests).toHaveLength(1);

      const abandoned = (await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant)).json();
      // A worker claims it and is killed before sending or recording anything.
      const claimed = (await worker.engine.claim()).filter((delivery) => delivery.endpointId === endpoint.id);
      expect(claimed.map((delivery) => delivery.id)).toEqual([abandoned.id]);
      // Its lease holds: no other pass takes it.
      await worker.runDeliveryPass();
      await pass();
      expect(receiver.requests).toHaveLength(1);
      expectErrorBody(await call('POST', `/webhook/deliveries/${abandoned.id}/redeliver`, merchant), 409, 'CONFLICT');

      clock.advance(ctx.config.webhooks.claimLeaseMs + 1000);
      await worker.runDeliveryPass();
      await worker.runDeliveryPass();
      expect(receiver.requests).toHaveLength(2);
      const payload = verify(endpoint.secret, receiver.requests[1]!, clock.now());
      expect(payload.deliveryId).toBe(abandoned.id);
      expect(verify(endpoint.secret, receiver.requests[0]!).deliveryId).toBe(done.id);

      // The dead worker's claim can no longer record anything.
      const late = await webhooksRepo.complete(
        ctx.database.db,
        claimed[0]!,
        { status: 'FAILED', retries_used: 0, next_attempt_at: null, last_attempt_at: clock.now(), last_status_code: null, last_error: 'late', updated_at: clock.now() },
        { id: '0190a0e0-2222-7000-8000-000000000001', attempted_at: clock.now(), succeeded: false, status_code: null, latency_ms: 1, error: 'late', response_body: null },
      );
      expect(late).toBe(false);
      const delivery = (await call('GET', `/webhook/deliveries/${abandoned.id}`, merchant)).json();
      expect(delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1 });
    });

    it('holds at most the per-endpoint number of attempts in flight, across claims', async () => {
      const merchant = await ctx.createMerchant();
      const busy = await newReceiver();
      const quiet = await newReceiver();
      const one = await createEndpoint(merchant, { url: busy.url });
      const two = await createEndpoint(merchant, { url: quiet.url });
      for (let i = 0; i < 3; i++) await call('POST', `/webhook/endpoints/${one.id}/test`, merchant);
      await call('POST', `/webhook/endpoints/${two.id}/test`, merchant);
      const service = createWebhooksService({
        db: ctx.database.db,
        clock: testClock(),
        settings: { ...ctx.config.webhooks, perEndpointConcurrency: 1 },
        secretKey: ctx.config.webhookSecretKey,
        events: [...orderEventDefinitions('sandbox'), ...receiverEventDefinitions()],
      });
      const mine = (claims: Array<{ endpointId: string }>) => claims.filter((claim) => [one.id, two.id].includes(claim.endpointId)).map((claim) => claim.endpointId);
      expect(mine(await service.engine.claim()).sort()).toEqual([one.id, two.id].sort());
      expect(mine(await service.engine.claim())).toEqual([]);
      for (const id of [one.id, two.id]) await call('DELETE', `/webhook/endpoints/${id}`, merchant);
    });

    it('two workers claiming at once share the work: no delivery twice, the per-endpoint cap holds across them', async () => {
      const merchant = await ctx.createMerchant();
      const receiver = await newReceiver();
      const endpoint = await createEndpoint(merchant, { url: receiver.url });
      for (let i = 0; i < 6; i++) await call('POST', `/webhook/endpoints/${endpoint.id}/test`, merchant);
      const workerWith = (perEndpointConcurrency: number) =>
        createWebhooksService({
          db: ctx.database.db,
          clock: testClock(),
          settings: { ...ctx.config.webhooks, perEndpointConcurrency },
          secretKey: ctx.config.webhookSecretKey,
          events: [...orderEventDefinitions('sandbox'), ...receiverEventDefinitions()],
        });
      const ours = (claims: Array<{ id: string; endpointId: string }>) => claims.filter((claim) => claim.endpointId === endpoint.id).map((claim) => claim.id);
      const [a, b] = await Promise.all([workerWith(4).engine.claim(), workerWith(4).engine.claim()]);
      const claimed = [...ours(a), ...ours(b)];
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed).toHaveLength(4);
      // The two still due go to whoever asks next, once the first four are in flight no more.
      const [c, d] = await Promise.all([workerWith(6).engine.claim(), workerWith(6).engine.claim()]);
      expect([...ours(c), ...ours(d)].sort()).toEqual(
        (await deliveries(merchant)).data.map((delivery) => delivery.id).filter((id: string) => !claimed.includes(id)).sort(),
      );
      await call('DELETE', `/webhook/endpoints/${endpoint.id}`, merchant);
    });

    it('signs with both secrets during the 24 h rotation overlap, then with the new one only', async () => {
      const clock = testClock();
      const worker = createWebhooksService({
        db: ctx.database.db,
        clock,
        settings: ctx.config.webhooks,
        secretKey: ctx.config.webhookSecretKey,
        events: [...orderEventDefinitions('sandbox'), ...receiverEventDefinitions()],
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
});
