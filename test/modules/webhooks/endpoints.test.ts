/**
 * Webhook endpoints (POST, GET, PATCH, DELETE /webhook/endpoints), happy paths: creation with a
 * secret, update, and deletion, which fails the endpoint's pending deliveries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { webhooksFixture } from './helpers.ts';

let ctx: TestContext;
const { closeReceivers, newReceiver, call, createEndpoint, pass, deliveries } = webhooksFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0,0' });
});
afterAll(async () => {
  await closeReceivers();
  await ctx?.close();
});

describe('endpoints', () => {
  it('creates an endpoint with a secret shown once', async () => {
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
  });

  it('updates and deletes; a deleted endpoint is gone and its pending deliveries end FAILED', async () => {
    const merchant = await ctx.createMerchant();
    const receiver = await newReceiver();
    const endpoint = await createEndpoint(merchant, { url: receiver.url });
    const patched = await call('PATCH', `/webhook/endpoints/${endpoint.id}`, merchant, { eventTypes: ['webhook.test'], description: null, enabled: false });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ eventTypes: ['webhook.test'], description: null, enabled: false });

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
});
