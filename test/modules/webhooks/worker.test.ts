/**
 * The real worker loop (src/platform/worker.ts with the jobs of src/jobs.ts) delivering a receiver event
 * end to end: API → outbox → fan-out → signed POST to a loopback receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createWorkerJobs } from '../../../src/jobs.ts';
import { createLogger } from '../../../src/logger.ts';
import { startWorker, type Worker } from '../../../src/platform/worker.ts';
import { type TestContext, createTestContext } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';
import { waitFor } from '../../helpers/processes.ts';
import { type Receiver, startReceiver, verify } from './helpers.ts';

describe('webhook delivery by the worker loop', () => {
  let ctx: TestContext;
  let receiver: Receiver;
  let worker: Worker | undefined;

  beforeAll(async () => {
    ctx = await createTestContext({ WEBHOOK_WORKER_INTERVAL_MS: '25', WEBHOOK_RETRY_SCHEDULE: '0' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver.close();
    await ctx.close();
  });

  it('delivers receiver.kyc_approved, signed and flat, retrying a failure on its own', async () => {
    const merchant = await ctx.createMerchant();
    const call = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: merchant.headers, payload });
    const endpoint = (await call('/webhook/endpoints', { url: receiver.url, eventTypes: ['receiver.kyc_approved'] })).json();
    const metrics = createMetrics();
    worker = startWorker(createWorkerJobs(ctx.app.services, ctx.config, metrics), createLogger('silent'));

    receiver.respondWith(503);
    const created = await call('/receivers', { type: 'PF', document: randomCpf(), name: 'João Souza', email: 'joao@example.com' });
    const receiverId = created.json().id;
    expect((await call(`/sandbox/receivers/${receiverId}/kyc`, { decision: 'APPROVE' })).statusCode).toBe(200);

    const [first, second] = await receiver.waitFor(2, 5000);
    const payload = verify(endpoint.secret, second!);
    expect(payload).toEqual({
      event: 'receiver.kyc_approved',
      receiverId,
      type: 'PF',
      name: 'João Souza',
      email: 'joao@example.com',
      kycStatus: 'APPROVED',
      kycReviewedAt: expect.any(String),
      timestamp: expect.any(String),
      deliveryId: second!.headers['webhook-id'],
    });
    expect(first!.headers['webhook-id']).toBe(second!.headers['webhook-id']);

    // The receiver has the request before the worker records its answer: wait for the record
    // (stopping first would abort the attempt in flight and leave it to be retried).
    const readLog = async () => (await ctx.app.inject({ method: 'GET', url: '/api/v1/webhook/deliveries', headers: merchant.headers })).json();
    const log = await waitFor(async () => {
      const current = await readLog();
      return current.data[0]?.status === 'SUCCEEDED' ? current : undefined;
    }, 5000);
    await worker.stop();
    worker = undefined;
    expect(log.data[0]).toMatchObject({ status: 'SUCCEEDED', attemptCount: 2 });
    expect(await metrics.registry.metrics()).toMatch(/webhook_delivery_attempts_total\{event="receiver.kyc_approved",outcome="success"\} 1/);
  });
});
