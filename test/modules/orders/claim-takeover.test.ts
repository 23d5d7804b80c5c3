/**
 * Claims that name their worker instance (decision 0037): a worker stalled for a second or two
 * keeps its order; one silent past WORKER_SILENCE_MS loses it to another worker, whatever its 30 s
 * lease says, and every write it makes afterwards is refused by the claim guard, even in the
 * status it left the order in; the order ends with one transfer, the new holder's.
 *
 * Both instances run in this process (the embedded session's proof: no instance here is ever
 * proven dead), so only the silence rule decides, on either driver.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createOrderSteps } from '../../../src/modules/orders/lifecycle/steps.ts';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import { type WorkerPresence, startWorkerPresence } from '../../../src/platform/worker-presence.ts';
import { createFakeChain } from './fake-chain.ts';
import { ordersTest } from './helpers.ts';

describe('an order claimed by a worker instance', () => {
  const t = ordersTest();
  const presences: WorkerPresence[] = [];
  afterEach(async () => {
    for (const presence of presences.splice(0)) await presence.stop();
  });

  async function twoWorkers() {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 });
    expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
    const { db } = t.ctx.database;
    const fake = createFakeChain();
    const { services } = t.ctx.app;
    const steps = () => createOrderSteps({ db, clock: t.clock, ledger: services.ledger, pix: services.adapters.pix, chain: fake.adapter, personalData: services.personalData });
    // No heartbeats during the test: each instance stays as silent as the test makes it.
    const instance = async () => {
      const presence = await startWorkerPresence({ db, heartbeatMs: 3_600_000 });
      presences.push(presence);
      return presence;
    };
    const [a, b] = [await instance(), await instance()];
    const silence = (presence: WorkerPresence, ms: number) => sql`update workers set heartbeat_at = statement_timestamp() - ${ms} * interval '1 millisecond' where id = ${presence.holder()}`.execute(db);
    const row = async () => (await ordersRepo.find(db, order.id as string))!;
    // Worker A claims the paid order and runs its first step: SWAPPING, still under A's claim (due at once).
    const claimed = (await ordersRepo.claimDueSteps(db, t.clock.now(), 10, 30_000, a.holder())).find((due) => due.id === order.id);
    expect(claimed).toMatchObject({ id: order.id, claimed_by: a.holder() });
    const swapping = (await steps().runStep(claimed!))!;
    expect(swapping).toMatchObject({ status: 'SWAPPING', claimed_by: a.holder() });
    return { order, db, fake, steps, a, b, silence, row, swapping };
  }

  it('a live worker stalled two seconds (a GC pause) keeps it: another finds nothing to claim', async () => {
    const { steps, a, b, silence, row, swapping } = await twoWorkers();
    await silence(a, 2000);
    expect(await steps().runDuePass({ holder: b.holder })).toBe(0);
    expect(await row()).toMatchObject({ status: 'SWAPPING', claimed_by: a.holder(), claimed_until: swapping.claimed_until });
  });

  it('a worker silent five seconds loses it at once, lease or not; its late writes are refused; one transfer, the new holder\'s', async () => {
    const { order, db, fake, steps, a, b, silence, row, swapping } = await twoWorkers();
    await silence(a, 6000);
    // B takes the order though A's 30 s lease runs (the test clock has not moved).
    expect(swapping.claimed_until!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    const takenByB = (await ordersRepo.claimDueSteps(db, t.clock.now(), 10, 30_000, b.holder())).find((due) => due.id === order.id);
    expect(takenByB).toMatchObject({ id: order.id, status: 'SWAPPING', claimed_by: b.holder() });

    // A comes back and finishes its step: the order is still SWAPPING, but no longer under A's claim.
    expect(await steps().runStep(swapping)).toBeUndefined();
    expect(await ordersRepo.backOff(db, swapping, { attempts: 1, at: t.clock.now() })).toEqual([expect.objectContaining({ numUpdatedRows: 0n })]);
    expect(await row()).toMatchObject({ status: 'SWAPPING', tx_hash: null, claimed_by: b.holder(), claimed_until: takenByB!.claimed_until, step_attempts: 0 });

    // B runs the order to its end: its own transfer stored, sent, confirmed.
    const transferring = (await steps().runStep(takenByB!))!;
    expect(await steps().runStep(transferring)).toBeUndefined();
    const done = await row();
    expect(done).toMatchObject({ status: 'COMPLETED', tx_hash: transferring.tx_hash, claimed_by: null, claimed_until: null });
    expect(fake.counts.prepares).toBe(2);
    expect(fake.landedFor(order.id as string).map((landed) => landed.txHash)).toEqual([transferring.tx_hash]);
  });
});
