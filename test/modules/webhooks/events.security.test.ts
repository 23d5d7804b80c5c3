/**
 * The webhook API needs credentials: without them every route is 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { webhooksFixture } from './helpers.ts';

let ctx: TestContext;
const { closeReceivers, newReceiver, createEndpoint } = webhooksFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0,0' });
});
afterAll(async () => {
  await closeReceivers();
  await ctx?.close();
});

describe('GET /webhook/events', () => {
  it('requires credentials', async () => {
    expectErrorBody(await ctx.app.inject({ method: 'GET', url: '/api/v1/webhook/events' }), 401, 'UNAUTHORIZED');
  });
});

describe('endpoints and deliveries', () => {
  it('without credentials every endpoint and delivery route is 401, and nothing changes', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    const someId = '00000000-0000-7000-8000-000000000000';
    for (const [method, url] of [
      ['GET', '/webhook/endpoints'],
      ['POST', '/webhook/endpoints'],
      ['GET', `/webhook/endpoints/${endpoint.id}`],
      ['PATCH', `/webhook/endpoints/${endpoint.id}`],
      ['DELETE', `/webhook/endpoints/${endpoint.id}`],
      ['POST', `/webhook/endpoints/${endpoint.id}/rotate-secret`],
      ['POST', `/webhook/endpoints/${endpoint.id}/test`],
      ['GET', '/webhook/deliveries'],
      ['GET', `/webhook/deliveries/${someId}`],
      ['POST', `/webhook/deliveries/${someId}/redeliver`],
    ] as const) {
      const payload = method === 'POST' || method === 'PATCH' ? { payload: { url: receiver.url, enabled: false } } : {};
      expectErrorBody(await ctx.app.inject({ method, url: `/api/v1${url}`, ...payload }), 401, 'UNAUTHORIZED');
    }
    const list = await ctx.app.inject({ method: 'GET', url: '/api/v1/webhook/endpoints', headers: merchant.headers });
    expect(list.json().data).toMatchObject([{ id: endpoint.id, enabled: true }]);
  });
});
