/**
 * Webhook endpoints, security: the signing secret is shown once and stored encrypted; targets
 * are judged against SSRF (by address, after resolving names, before any connection); and one
 * merchant never reaches another's endpoints, deliveries or events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEventDefinitions } from '../../../src/modules/orders/events.ts';
import { receiverEventDefinitions } from '../../../src/modules/receivers/events.ts';
import { createWebhooksService } from '../../../src/modules/webhooks/service.ts';
import { type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { UNKNOWN_ID } from '../../helpers/factories.ts';
import { testClock, webhooksFixture } from './helpers.ts';

let ctx: TestContext;
const { closeReceivers, newReceiver, call, createEndpoint, decideKyc, pass, deliveries } = webhooksFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0,0' });
});
afterAll(async () => {
  await closeReceivers();
  await ctx?.close();
});

describe('endpoints', () => {
  it('the secret is shown once: never listed, never in GET, stored encrypted', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const created = await createEndpoint(merchant, { url: receiver.url, description: 'orders', eventTypes: ['receiver.kyc_approved'] });

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
      personalData: ctx.app.services.personalData,
      events: [...orderEventDefinitions(), ...receiverEventDefinitions()],
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
