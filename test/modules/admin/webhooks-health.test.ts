/**
 * GET /admin/webhooks/health: real endpoints of three merchants receive a real event (a receiver's
 * KYC approved) from the delivery engine. The one answering 500 is failing with a retry waiting,
 * the disabled one is listed first, the one answering 200 is healthy and listed only on request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { adminHeaders, createWebhookEndpoint } from '../../helpers/factories.ts';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Receiver, startReceiver } from '../webhooks/helpers.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const t = ordersTest();
const receivers: Receiver[] = [];
afterAll(() => Promise.all(receivers.map((r) => r.close())));

const admin = async (url: string) => t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin${url}`, headers: adminHeaders });

let failing: { merchant: TestMerchant; endpointId: string; url: string };
let healthy: { merchant: TestMerchant; endpointId: string };
let disabled: { merchant: TestMerchant; endpointId: string; url: string };

/** Delivery passes until every delivery of the endpoint has had an attempt. */
async function deliverTo(endpointId: string) {
  for (let pass = 0; pass < 50; pass++) {
    await t.ctx.app.services.webhooks.runDeliveryPass();
    const rows = await t.ctx.database.db.selectFrom('webhook_deliveries').select(['attempts']).where('endpoint_id', '=', endpointId).execute();
    if (rows.length > 0 && rows.every((row) => row.attempts > 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no attempt reached endpoint ${endpointId}`);
}

beforeAll(async () => {
  const failingHooks = await startReceiver();
  const healthyHooks = await startReceiver();
  const unusedHooks = await startReceiver('/off');
  receivers.push(failingHooks, healthyHooks, unusedHooks);
  failingHooks.respondWith(500, 500, 500);

  const a = await t.merchant('Loja Falha');
  const b = await t.merchant('Loja Saudável');
  const c = await t.merchant('Loja Desligada');
  const failingEndpoint = await createWebhookEndpoint(t.ctx, a, { url: failingHooks.url });
  const healthyEndpoint = await createWebhookEndpoint(t.ctx, b, { url: healthyHooks.url });
  const disabledEndpoint = await createWebhookEndpoint(t.ctx, c, { url: unusedHooks.url, enabled: false });
  failing = { merchant: a, endpointId: failingEndpoint.id, url: failingHooks.url };
  healthy = { merchant: b, endpointId: healthyEndpoint.id };
  disabled = { merchant: c, endpointId: disabledEndpoint.id, url: unusedHooks.url };

  // A receiver approved: receiver.kyc_approved, one delivery per enabled endpoint.
  await t.activeReceiver(a);
  await t.activeReceiver(b);
  await deliverTo(failing.endpointId);
  await deliverTo(healthy.endpointId);
});

describe('GET /admin/webhooks/health', () => {
  it('lists the disabled and the failing endpoints, worst first, and not the healthy one', async () => {
    const response = await admin('/webhooks/health');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.windowHours).toBe(24);
    expect(body.data.map((e: Json) => e.endpointId)).toEqual([disabled.endpointId, failing.endpointId]);
    const [off, bad] = body.data;
    expect(off).toMatchObject({
      merchantId: disabled.merchant.merchantId,
      merchantName: 'Loja Desligada',
      url: disabled.url,
      status: 'DISABLED',
      disabledReason: null,
      deliveries: { total: 0, succeeded: 0, failed: 0, pending: 0 },
      successRate: null,
      pendingRetries: 0,
    });
    expect(bad).toEqual({
      merchantId: failing.merchant.merchantId,
      merchantName: 'Loja Falha',
      endpointId: failing.endpointId,
      url: failing.url,
      status: 'ENABLED',
      disabledReason: null,
      failingSince: expect.any(String),
      deliveries: { total: 1, succeeded: 0, failed: 0, pending: 1 },
      successRate: null,
      lastSuccessAt: null,
      lastFailureAt: expect.any(String),
      lastFailureStatusCode: 500,
      lastFailureError: expect.toSatisfy((value: unknown) => value === null || typeof value === 'string'),
      pendingRetries: 1,
    });
  });

  it('lists the healthy endpoint too with includeHealthy=true, last', async () => {
    const body = (await admin('/webhooks/health?includeHealthy=true')).json();
    expect(body.data.map((e: Json) => e.endpointId)).toEqual([disabled.endpointId, failing.endpointId, healthy.endpointId]);
    expect(body.data[2]).toMatchObject({
      merchantName: 'Loja Saudável',
      status: 'ENABLED',
      failingSince: null,
      deliveries: { total: 1, succeeded: 1, failed: 0, pending: 0 },
      successRate: 1,
      lastSuccessAt: expect.any(String),
      lastFailureAt: null,
      lastFailureStatusCode: null,
      pendingRetries: 0,
    });
  });

  it('counts a delivery that ended FAILED in the success rate, and leaves a deleted endpoint out', async () => {
    const { merchant } = await t.merchantWithReceiver('Loja Mista');
    const hooks = await startReceiver();
    receivers.push(hooks);
    const endpoint = await createWebhookEndpoint(t.ctx, merchant, { url: hooks.url });
    await t.activeReceiver(merchant);
    await t.activeReceiver(merchant);
    await deliverTo(endpoint.id);
    // One of the two ran out of retries (the retry schedule takes a day: written directly).
    const [first] = await t.ctx.database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).orderBy('created_at').execute();
    await t.ctx.database.db
      .updateTable('webhook_deliveries')
      .set({ status: 'FAILED', last_status_code: 503, last_error: 'HTTP 503', next_attempt_at: null })
      .where('id', '=', first!.id)
      .execute();
    const row = (await admin('/webhooks/health')).json().data.find((e: Json) => e.endpointId === endpoint.id);
    expect(row).toMatchObject({ deliveries: { total: 2, succeeded: 1, failed: 1, pending: 0 }, successRate: 0.5, lastFailureStatusCode: 503, lastFailureError: 'HTTP 503', pendingRetries: 0 });

    const deleted = await t.ctx.app.inject({ method: 'DELETE', url: `/api/v1/webhook/endpoints/${endpoint.id}`, headers: merchant.headers });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const all = (await admin('/webhooks/health?includeHealthy=true')).json();
    expect(all.data.map((e: Json) => e.endpointId)).not.toContain(endpoint.id);
  });

  it('refuses a malformed includeHealthy with 400', async () => {
    expectErrorBody(await admin('/webhooks/health?includeHealthy=maybe'), 400, 'VALIDATION_ERROR');
    expectErrorBody(await admin('/webhooks/health?other=1'), 400, 'VALIDATION_ERROR');
  });
});
