/**
 * A pending PAYIN transfer woken by the node's signature notification (transfer-wakeups.ts,
 * decision 0054), on the chain simulator with SOLANA_WS_URL its websocket: the notification makes
 * the order's step due at once and wakes the order lane, and the step's status check completes
 * it (a batch's transaction too); with the websocket down, polling completes it as before; a stale notification (the order
 * moved on) writes nothing.
 */
import { type Address, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import { ORDER_STEPS_CHANNEL } from '../../../src/modules/orders/lifecycle/transitions.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { solanaRpcSettings, startHandClockedChain, until, fundTreasury } from '../../helpers/chain-simulator.ts';
import { ordersTest } from './helpers.ts';

const FINALIZED_LAG = 3;

describe('a pending PAYIN transfer woken by its signature notification', () => {
  let sim: ChainSimulator;
  let usdc: Address;

  beforeAll(async () => {
    ({ sim, usdc } = await startHandClockedChain(FINALIZED_LAG));
  });
  afterAll(() => sim?.close());

  // Batches allowed (decision 0053): an order alone still goes the single path; two paid at once share a transaction.
  const t = ordersTest(() => ({ ...solanaRpcSettings(sim.url, usdc), SOLANA_WS_URL: sim.wsUrl, CHAIN_TRANSFER_BATCH_MAX: '4' }));

  beforeAll(async () => {
    await fundTreasury(sim, t.ctx.app.services, usdc);
  });

  /** A paid PAYIN run to TRANSFERRING: its transaction sent, not final, its step due again in 1 s. */
  async function transferring() {
    const merchant = await t.merchant();
    const receiver = await t.activeReceiver(merchant, { walletAddress: (await generateKeyPairSigner()).address });
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 20 });
    expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
    const row = async () => (await ordersRepo.find(t.ctx.database.db, order.id as string))!;
    await t.ctx.app.services.orderSteps.runDuePass();
    const pending = await row();
    expect(pending.status).toBe('TRANSFERRING');
    expect(pending.next_step_at!.getTime()).toBe(t.clock.now().getTime() + 1000);
    return { row, pending };
  }

  const signals = () => {
    const seen: string[] = [];
    const stop = t.ctx.app.services.notifications.subscribe(ORDER_STEPS_CHANNEL, (payload) => seen.push(payload));
    return { seen, stop };
  };

  it('the notification makes the step due now and wakes the lane; the status check completes the order, the clock never moved', async () => {
    const { row } = await transferring();
    const subscriptions = t.ctx.app.services.signatureSubscriptions!;
    await until(async () => subscriptions.connected() && sim.state().subscriptions > 0);
    const woken = signals();
    try {
      // Landed and confirmed, not final: no wake-up.
      sim.advanceSlots(FINALIZED_LAG);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await row()).next_step_at!.getTime()).toBeGreaterThan(t.clock.now().getTime());
      expect(woken.seen).toEqual([]);
      sim.advanceSlots(2);
      await until(async () => (await row()).next_step_at!.getTime() <= t.clock.now().getTime());
      await until(async () => woken.seen.length > 0);
    } finally {
      woken.stop();
    }
    await t.ctx.app.services.orderSteps.runDuePass();
    expect((await row()).status).toBe('COMPLETED');
    expect(subscriptions.watched()).toBe(0);
  });

  it('a batch’s transfer is watched too: the notification wakes the order that found it pending, whose step completes the whole batch', async () => {
    const merchant = await t.merchant();
    const ids: string[] = [];
    for (const amountBrl of [21, 22]) {
      const receiver = await t.activeReceiver(merchant, { walletAddress: (await generateKeyPairSigner()).address });
      const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl });
      expect((await t.call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {})).statusCode).toBe(200);
      ids.push(order.id as string);
    }
    const rows = () => Promise.all(ids.map(async (id) => (await ordersRepo.find(t.ctx.database.db, id))!));
    await t.ctx.app.services.orderSteps.runDuePass({ parallel: 1 });
    const pending = await rows();
    expect(pending.map((row) => row.status)).toEqual(['TRANSFERRING', 'TRANSFERRING']);
    expect(pending[1]!.tx_hash).toBe(pending[0]!.tx_hash);
    const subscriptions = t.ctx.app.services.signatureSubscriptions!;
    await until(async () => subscriptions.connected() && subscriptions.watched() > 0);
    // The order that sent it backed off for 1 s (its mate stays leased to the same worker meanwhile).
    const waiting = pending.find((row) => row.next_step_at !== null && row.next_step_at.getTime() > t.clock.now().getTime())!;
    expect(waiting).toBeDefined();
    sim.advanceSlots(FINALIZED_LAG + 2);
    await until(async () => (await ordersRepo.find(t.ctx.database.db, waiting.id))!.next_step_at!.getTime() <= t.clock.now().getTime());
    await t.ctx.app.services.orderSteps.runDuePass();
    expect((await rows()).map((row) => row.status)).toEqual(['COMPLETED', 'COMPLETED']);
  });

  it('with the websocket down, polling completes the order; the subscriptions come back after', async () => {
    await sim.setFaults({ websocketDownMs: 60_000 });
    const subscriptions = t.ctx.app.services.signatureSubscriptions!;
    await until(async () => !subscriptions.connected());
    const { row } = await transferring();
    for (let pass = 0; (await row()).status !== 'COMPLETED'; pass++) {
      if (pass > 20) throw new Error(`order still ${(await row()).status}`);
      sim.advanceSlots(1);
      t.clock.advance(1000);
      await t.ctx.app.services.orderSteps.runDuePass();
    }
    expect(subscriptions.connected()).toBe(false);
    await sim.setFaults({ websocketDownMs: 0 });
    // The next pending transfer reconnects (back-off at most 30 s; jittered) and is woken again.
    const next = await transferring();
    await until(async () => subscriptions.connected(), 40_000);
    sim.advanceSlots(FINALIZED_LAG + 2);
    await until(async () => (await next.row()).next_step_at!.getTime() <= t.clock.now().getTime());
    await t.ctx.app.services.orderSteps.runDuePass();
    expect((await next.row()).status).toBe('COMPLETED');
  }, 60_000);

  it('a notification for a transfer no longer the order\'s writes nothing', async () => {
    const { row, pending } = await transferring();
    const db = t.ctx.database.db;
    expect(await ordersRepo.transferDueNow(db, pending.id, 'another-signature', t.clock.now())).toBeUndefined();
    const due = await ordersRepo.transferDueNow(db, pending.id, pending.tx_hash!, t.clock.now());
    expect(due).toEqual({ held: false });
    sim.advanceSlots(FINALIZED_LAG + 2);
    // The node's notification wakes the order as well: its UPDATE can hold the row while a pass
    // claims, and the claim skips a locked row (seen once in CI); the next pass takes it.
    await until(async () => {
      await t.ctx.app.services.orderSteps.runDuePass();
      return (await row()).status === 'COMPLETED';
    });
    expect(await ordersRepo.transferDueNow(db, pending.id, pending.tx_hash!, t.clock.now())).toBeUndefined();
  });
});
