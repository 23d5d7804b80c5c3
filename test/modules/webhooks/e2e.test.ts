/**
 * The "must show", through HTTP on a fresh embedded start: `src/main.ts` in its own
 * process (api + worker roles, PGlite) delivers a webhook.test and a receiver event to a local
 * receiver, each verifying with `standardwebhooks` under the endpoint's secret.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../helpers/processes.ts';
import { EXTENSION_EVENTS, type Receiver, SPEC_EVENTS, startReceiver, verify } from './helpers.ts';

describe('webhooks on a fresh embedded start', () => {
  let service: RunningService;
  let base: string;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    service = await startService(await mkdtemp(path.join(os.tmpdir(), 'exchange-webhooks-e2e-')), { LOG_LEVEL: 'warn', WEBHOOK_WORKER_INTERVAL_MS: '50' });
    base = service.base;
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    if (service) await rm(service.dataDir, { recursive: true, force: true });
  });

  it('delivers webhook.test and receiver.kyc_approved, verifiable, flat, deliveryId = webhook-id; lists the catalog', async () => {
    const demo = await service.demoCredentials();
    const headers = { 'x-api-key': demo.apiKey, 'x-api-secret': demo.apiSecret };
    const api = async (method: string, url: string, body?: object) => {
      const response = await fetch(`${base}/api/v1${url}`, {
        method,
        headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers, asserted field by field
      return { status: response.status, json: (await response.json()) as any };
    };

    const catalog = await api('GET', '/webhook/events');
    expect(catalog.status).toBe(200);
    expect(catalog.json.data.map((entry: { name: string }) => entry.name)).toEqual([...SPEC_EVENTS, ...EXTENSION_EVENTS, 'webhook.test', 'webhook.endpoint_disabled']);
    for (const entry of catalog.json.data) expect(Object.keys(entry.payload.properties ?? entry.payload.oneOf[0].properties)).toContain('deliveryId');

    const endpoint = await api('POST', '/webhook/endpoints', { url: receiver.url });
    expect(endpoint.status).toBe(201);
    const secret = endpoint.json.secret as string;
    expect((await api('POST', `/webhook/endpoints/${endpoint.json.id}/test`)).status).toBe(202);
    const created = await api('POST', '/receivers', { type: 'PJ', document: '12.ABC.345/01DE-35', name: 'Acme Ltda', email: 'finance@acme.test' });
    expect(created.status).toBe(201);
    expect((await api('POST', `/sandbox/receivers/${created.json.id}/kyc`, { decision: 'APPROVE' })).status).toBe(200);

    const requests = await receiver.waitFor(2, 10_000);
    const payloads = requests.map((request) => verify(secret, request));
    for (const [i, payload] of payloads.entries()) {
      expect(payload.deliveryId).toBe(requests[i]!.headers['webhook-id']);
      expect(Object.values(payload).every((value) => typeof value !== 'object')).toBe(true); // flat
      expect(() => verify(secret, { ...requests[i]!, body: requests[i]!.body.replace('"event"', '"Event"') })).toThrow();
    }
    expect(payloads.map((payload) => payload.event).sort()).toEqual(['receiver.kyc_approved', 'webhook.test']);
    expect(payloads.find((payload) => payload.event === 'receiver.kyc_approved')).toMatchObject({
      receiverId: created.json.id,
      type: 'PJ',
      name: 'Acme Ltda',
      kycStatus: 'APPROVED',
    });

    // One metrics registry for both roles: the worker's counters show on the api's /metrics.
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/webhook_delivery_attempts_total\{event="webhook.test",outcome="success"\} 1/);
    expect(service.output()).not.toContain(secret);
  }, 30_000);
});
