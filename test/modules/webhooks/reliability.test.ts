/**
 * Issue 13's delivery guarantees, on the worker's real pipeline (dispatcher.ts through
 * webhookDeliveryJob and startWorker): a hanging endpoint does not hold up another's deliveries;
 * per order, events arrive in creation order; receiver signals (410 Gone, 429/503 Retry-After);
 * Svix-like recovery; endpoints failing for days are disabled; retention purges old rows; a worker
 * that dies mid-attempt leaves the delivery to be retried.
 */
import { once } from 'node:events';
import { inTransaction } from '../../../src/platform/commit-signals.ts';
import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../../src/platform/outbox.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createLogger } from '../../../src/logger.ts';
import { orderEventDefinitions } from '../../../src/modules/orders/events.ts';
import { receiverEventDefinitions } from '../../../src/modules/receivers/events.ts';
import { webhookDeliveryJob } from '../../../src/modules/webhooks/job.ts';
import { createWebhooksService } from '../../../src/modules/webhooks/service.ts';
import { startWorker, type Worker } from '../../../src/platform/worker.ts';
import { type TestContext, createTestContext } from '../../helpers/app.ts';
import type { TestMerchant } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/processes.ts';
import { testClock, verify, webhooksFixture } from './helpers.ts';

let ctx: TestContext;
const { closeReceivers, newReceiver, call, createEndpoint, pass, deliveries } = webhooksFixture(() => ctx);
let worker: Worker | undefined;

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0', WEBHOOK_TIMEOUT_MS: '20000', WEBHOOK_WORKER_INTERVAL_MS: '60000' });
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});
afterAll(async () => {
  await closeReceivers();
  await ctx?.close();
});

/** The worker role's delivery job alone, woken by the app's notifications (the interval is a minute). */
function startDeliveryWorker() {
  const services = ctx.app.services;
  worker = startWorker([webhookDeliveryJob(services.webhooks, ctx.config.webhooks, createMetrics())], createLogger('silent'), services.notifications);
}

const ping = async (merchant: TestMerchant, endpointId: string) => {
  const response = await call('POST', `/webhook/endpoints/${endpointId}/test`, merchant);
  expect(response.statusCode).toBe(202);
  return response.json().id as string;
};

const until = <T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000) => waitFor(async () => probe(), timeoutMs);

describe('the delivery pipeline', () => {
  it('a hanging endpoint does not delay another endpoint’s delivery', async () => {
    const [slow, fast] = [await ctx.createMerchant('Hangs'), await ctx.createMerchant('Answers')];
    const hanging = await newReceiver();
    hanging.respondWith(...Array<number>(40).fill(0)); // accepts and never answers
    const healthy = await newReceiver();
    const stuck = await createEndpoint(slow, { url: hanging.url });
    const fine = await createEndpoint(fast, { url: healthy.url });
    for (let i = 0; i < 20; i++) await ping(slow, stuck.id);
    startDeliveryWorker();
    // The hanging endpoint holds its attempts (its whole per-endpoint cap) open.
    await hanging.waitFor(16);

    const started = Date.now();
    for (let i = 0; i < 10; i++) await ping(fast, fine.id);
    await until(async () => ((await deliveries(fast, '?status=SUCCEEDED')).total === 10 ? true : undefined), 15_000);
    // All delivered and recorded while every attempt to the hanging endpoint is still open (their
    // deadline is 20 s): nothing waited for them.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await deliveries(slow)).data.every((delivery) => delivery.attemptCount === 0)).toBe(true);
    expect(healthy.requests).toHaveLength(10);
    await worker!.stop();
    worker = undefined;
    await call('DELETE', `/webhook/endpoints/${stuck.id}`, slow);
  });

  it('per order, events reach a healthy endpoint in the order they were created, orders in parallel', async () => {
    const merchant = await ctx.createMerchant();
    const received: Array<{ orderId: string; seq: number }> = [];
    // A receiver that answers after a random delay, so parallel attempts would overtake each other.
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        const payload = JSON.parse(body) as { orderId: string; seq: number };
        setTimeout(() => {
          received.push({ orderId: payload.orderId, seq: payload.seq });
          res.end('ok');
        }, Math.random() * 30);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    await createEndpoint(merchant, { url: `http://127.0.0.1:${port}/hooks` });

    const orders = ['0190a0e0-0000-7000-8000-0000000000a1', '0190a0e0-0000-7000-8000-0000000000a2', '0190a0e0-0000-7000-8000-0000000000a3'];
    for (let seq = 0; seq < 6; seq++) {
      for (const orderId of orders) {
        await inTransaction(ctx.database.db, (trx) =>
          recordEvent(trx, { merchantId: merchant.merchantId, event: 'order.processing', payload: { orderId, seq, timestamp: new Date().toISOString() } }),
        );
      }
    }
    startDeliveryWorker();
    await until(() => (received.length === 18 ? true : undefined), 10_000);
    for (const orderId of orders) {
      expect(received.filter((entry) => entry.orderId === orderId).map((entry) => entry.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    }
    server.closeAllConnections();
    server.close();
  });
});

describe('receiver signals', () => {
  it('410 Gone disables the endpoint at once and tells the merchant by an event to its other endpoints', async () => {
    const merchant = await ctx.createMerchant();
    const gone = await newReceiver();
    gone.respondWith(410);
    const other = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: gone.url });
    await createEndpoint(merchant, { url: other.url, eventTypes: ['webhook.endpoint_disabled'] });
    const deliveryId = await ping(merchant, endpoint.id);
    await pass();
    const delivery = (await call('GET', `/webhook/deliveries/${deliveryId}`, merchant)).json();
    // No retry after a 410, though the schedule has one left.
    expect(delivery).toMatchObject({ status: 'FAILED', attemptCount: 1, lastStatusCode: 410 });
    const disabled = (await call('GET', `/webhook/endpoints/${endpoint.id}`, merchant)).json();
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone' });

    await pass();
    const [notice] = await other.waitFor(1);
    const otherSecret = (await call('GET', '/webhook/endpoints', merchant)).json();
    expect(otherSecret.data).toHaveLength(2);
    expect(JSON.parse(notice!.body)).toMatchObject({ event: 'webhook.endpoint_disabled', endpointId: endpoint.id, url: gone.url, reason: 'GONE' });

    // Enabled again by the merchant: a fresh start.
    const enabled = (await call('PATCH', `/webhook/endpoints/${endpoint.id}`, merchant, { enabled: true })).json();
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('429 and 503 with Retry-After set the earliest next attempt; without it the schedule (with jitter) applies', async () => {
    const merchant = await ctx.createMerchant();
    const answers: Array<[number, Record<string, string>]> = [
      [429, { 'retry-after': '120' }],
      [503, { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() }],
      [500, {}],
    ];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const [status, headers] = answers.shift() ?? [200, {}];
        res.writeHead(status, headers);
        res.end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const endpoint = await createEndpoint(merchant, { url: `http://127.0.0.1:${port}/hooks` });
    const ids = [await ping(merchant, endpoint.id), await ping(merchant, endpoint.id), await ping(merchant, endpoint.id)];
    const service = createWebhooksService({
      db: ctx.database.db,
      clock: testClock(),
      settings: { ...ctx.config.webhooks, retryScheduleSeconds: [10], perEndpointConcurrency: 1 },
      secretKey: ctx.config.webhookSecretKey,
      personalData: ctx.app.services.personalData,
      events: [...orderEventDefinitions(), ...receiverEventDefinitions()],
    });
    for (let i = 0; i < 3; i++) await service.runDeliveryPass();
    const next = async (id: string) => {
      const delivery = (await call('GET', `/webhook/deliveries/${id}`, merchant)).json();
      expect(delivery.status).toBe('PENDING');
      return Date.parse(delivery.nextAttemptAt) - Date.parse(delivery.lastAttemptAt);
    };
    const [afterTooMany, afterUnavailable, afterError] = [await next(ids[0]!), await next(ids[1]!), await next(ids[2]!)];
    expect(afterTooMany).toBeGreaterThanOrEqual(119_000);
    expect(afterTooMany).toBeLessThan(125_000);
    expect(afterUnavailable).toBeGreaterThan(3_500_000);
    // 10 s of schedule, stretched by up to 20 % of jitter.
    expect(afterError).toBeGreaterThanOrEqual(9_900);
    expect(afterError).toBeLessThanOrEqual(12_100);
    await call('DELETE', `/webhook/endpoints/${endpoint.id}`, merchant);
    server.closeAllConnections();
    server.close();
  });
});

describe('recovery', () => {
  it('POST /webhook/endpoints/{id}/recover re-queues exactly the FAILED deliveries created since `since`', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    const other = await createEndpoint(merchant, { url: (await newReceiver()).url });
    const failPass = async (count: number) => {
      receiver.respondWith(...Array<number>(count * 2).fill(500));
      await pass();
      await pass();
    };
    const before = await ping(merchant, endpoint.id);
    await failPass(1);
    const since = (await call('GET', `/webhook/deliveries/${await ping(merchant, endpoint.id)}`, merchant)).json();
    const failedAfter = [since.id as string, await ping(merchant, endpoint.id)];
    await failPass(2);
    const succeeded = await ping(merchant, endpoint.id);
    receiver.respondWith(200);
    await pass();
    const otherFailed = await ping(merchant, other.id);
    await call('PATCH', `/webhook/endpoints/${other.id}`, merchant, { url: 'http://127.0.0.1:1/closed' });
    await pass();
    await pass();
    const status = async (id: string) => (await call('GET', `/webhook/deliveries/${id}`, merchant)).json().status;
    expect([await status(before), ...(await Promise.all(failedAfter.map(status))), await status(succeeded), await status(otherFailed)]).toEqual([
      'FAILED',
      'FAILED',
      'FAILED',
      'SUCCEEDED',
      'FAILED',
    ]);

    const response = await call('POST', `/webhook/endpoints/${endpoint.id}/recover`, merchant, { since: since.createdAt });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ endpointId: endpoint.id, since: since.createdAt, requeued: 2 });
    expect(await status(before)).toBe('FAILED');
    expect(await status(otherFailed)).toBe('FAILED');
    expect(await Promise.all(failedAfter.map(status))).toEqual(['PENDING', 'PENDING']);

    const seen = receiver.requests.length;
    await pass();
    const resent = receiver.requests.slice(seen).map((request) => request.headers['webhook-id']);
    expect(resent.sort()).toEqual([...failedAfter].sort());
    expect(await Promise.all(failedAfter.map(status))).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect(verify(endpoint.secret, receiver.requests.at(-1)!).deliveryId).toBe(receiver.requests.at(-1)!.headers['webhook-id']);

    // Another merchant's endpoint, and a bad body, are refused.
    const stranger = await ctx.createMerchant();
    expect((await call('POST', `/webhook/endpoints/${endpoint.id}/recover`, stranger, { since: since.createdAt })).statusCode).toBe(404);
    expect((await call('POST', `/webhook/endpoints/${endpoint.id}/recover`, merchant, { since: 'yesterday' })).statusCode).toBe(400);
    for (const id of [endpoint.id, other.id]) await call('DELETE', `/webhook/endpoints/${id}`, merchant);
  });
});

describe('upkeep', () => {
  it('an endpoint failing for WEBHOOK_DISABLE_AFTER_DAYS days is disabled and the merchant told', async () => {
    const merchant = await ctx.createMerchant();
    const failing = await newReceiver();
    failing.respondWith(500, 500, 500, 500);
    const watcher = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: failing.url });
    await createEndpoint(merchant, { url: watcher.url, eventTypes: ['webhook.endpoint_disabled'] });
    await ping(merchant, endpoint.id);
    await pass();
    const marked = (await call('GET', `/webhook/endpoints/${endpoint.id}`, merchant)).json();
    expect(marked.failingSince).toEqual(expect.any(String));

    const later = testClock();
    const service = createWebhooksService({
      db: ctx.database.db,
      clock: later,
      settings: ctx.config.webhooks,
      secretKey: ctx.config.webhookSecretKey,
      personalData: ctx.app.services.personalData,
      events: [...orderEventDefinitions(), ...receiverEventDefinitions()],
    });
    later.advance(4 * 86_400_000);
    await service.maintenance.disableFailingEndpoints();
    expect((await call('GET', `/webhook/endpoints/${endpoint.id}`, merchant)).json().enabled).toBe(true);
    later.advance(2 * 86_400_000);
    await service.maintenance.disableFailingEndpoints();
    expect((await call('GET', `/webhook/endpoints/${endpoint.id}`, merchant)).json()).toMatchObject({ enabled: false, disabledReason: 'Every attempt failed for 5 days' });
    await pass();
    const [notice] = await watcher.waitFor(1);
    expect(JSON.parse(notice!.body)).toMatchObject({ event: 'webhook.endpoint_disabled', endpointId: endpoint.id, reason: 'FAILING', failingSince: marked.failingSince });
  });

  it('retention purges finished deliveries with their attempts, then events no delivery refers to; pending ones stay', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    const done = await ping(merchant, endpoint.id);
    await pass();
    const waiting = await ping(merchant, endpoint.id); // stays PENDING: no pass runs for it
    const later = testClock();
    later.advance(31 * 86_400_000);
    const service = createWebhooksService({
      db: ctx.database.db,
      clock: later,
      settings: ctx.config.webhooks,
      secretKey: ctx.config.webhookSecretKey,
      personalData: ctx.app.services.personalData,
      events: [...orderEventDefinitions(), ...receiverEventDefinitions()],
    });
    const purged = await service.maintenance.purge();
    expect(purged.deliveries).toBeGreaterThanOrEqual(1);
    expect(purged.events).toBeGreaterThanOrEqual(1);
    expect((await call('GET', `/webhook/deliveries/${done}`, merchant)).statusCode).toBe(404);
    expect((await call('GET', `/webhook/deliveries/${waiting}`, merchant)).json().status).toBe('PENDING');
    const db = ctx.database.db;
    expect(await db.selectFrom('webhook_delivery_attempts').select('id').where('delivery_id', '=', done).execute()).toEqual([]);
    const events = await db.selectFrom('events').select('event_type').where('merchant_id', '=', merchant.merchantId).execute();
    expect(events).toHaveLength(1); // the pending delivery's event
  });
});

describe('a worker that dies mid-attempt', () => {
  it('leaves the delivery to be retried by another worker once its lease lapses, same deliveryId', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    receiver.respondWith(0); // the first attempt is in progress when the worker dies
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    const id = await ping(merchant, endpoint.id);
    const events = [...orderEventDefinitions(), ...receiverEventDefinitions()];
    const clock = testClock();
    // The worker that dies: its request reaches the receiver, then the process is gone (the attempt never ends).
    const dyingSend = (request: { url: string; headers: Record<string, string>; body: string }) => {
      void fetch(request.url, { method: 'POST', headers: request.headers, body: request.body }).catch(() => {});
      return new Promise<never>(() => {});
    };
    const dying = createWebhooksService({ db: ctx.database.db, clock, settings: ctx.config.webhooks, secretKey: ctx.config.webhookSecretKey, personalData: ctx.app.services.personalData, events, send: dyingSend });
    const [claimed] = (await dying.engine.claim()).filter((delivery) => delivery.endpointId === endpoint.id);
    expect(claimed!.id).toBe(id);
    void dying.engine.attempt(claimed!);
    await receiver.waitFor(1);
    const survivor = createWebhooksService({ db: ctx.database.db, clock, settings: ctx.config.webhooks, secretKey: ctx.config.webhookSecretKey, personalData: ctx.app.services.personalData, events });
    expect((await survivor.runDeliveryPass()).claimed).toBe(0);
    clock.advance(ctx.config.webhooks.claimLeaseMs + 1000);
    await survivor.runDeliveryPass();
    const delivery = (await call('GET', `/webhook/deliveries/${id}`, merchant)).json();
    expect(delivery).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1 });
    expect(receiver.requests.map((request) => request.headers['webhook-id'])).toEqual([id, id]);
  });
});
