/**
 * The delivery engine under several workers: claims are leased (a dead worker's claim is
 * delivered once its lease expires, exactly once, and its late result is refused), the
 * per-endpoint cap of attempts in flight holds across claims and across workers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEventDefinitions } from '../../../src/modules/orders/events.ts';
import { receiverEventDefinitions } from '../../../src/modules/receivers/events.ts';
import { deliveryRepo } from '../../../src/modules/webhooks/delivery-repo.ts';
import { createWebhooksService } from '../../../src/modules/webhooks/service.ts';
import { type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { testClock, verify, webhooksFixture } from './helpers.ts';

let ctx: TestContext;
const { closeReceivers, newReceiver, call, createEndpoint, pass, deliveries } = webhooksFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_SCHEDULE: '0,0' });
});
afterAll(async () => {
  await closeReceivers();
  await ctx?.close();
});

describe('delivery', () => {
  it('a delivery claimed by a worker that died is delivered by the next pass once its lease expires, exactly once', async () => {
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
    const late = await deliveryRepo.recordOutcomes(ctx.database.db, [
      {
        id: claimed[0]!.id,
        token: claimed[0]!.token,
        status: 'FAILED',
        retries_used: 0,
        next_attempt_at: null,
        attempted_at: clock.now(),
        status_code: null,
        error: 'late',
        updated_at: clock.now(),
        attempt_id: '0190a0e0-2222-7000-8000-000000000001',
        succeeded: false,
        latency_ms: 1,
        response_body: null,
      },
    ]);
    expect(late.size).toBe(0);
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
      personalData: ctx.app.services.personalData,
      events: [...orderEventDefinitions(), ...receiverEventDefinitions()],
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
        personalData: ctx.app.services.personalData,
        events: [...orderEventDefinitions(), ...receiverEventDefinitions()],
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
});
