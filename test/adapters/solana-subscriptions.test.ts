/**
 * The signature subscriptions (src/adapters/chain/solana-subscriptions.ts) against the chain
 * simulator's websocket: one notification when a signature reaches the commitment, none before;
 * no connection until something is watched; a cut websocket reconnected with back-off and every
 * watched signature subscribed again (one final meanwhile notified at once); a signature never
 * notified dropped after its time.
 */
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSignatureSubscriptions, type SignatureSubscriptions } from '../../src/adapters/chain/solana-subscriptions.ts';
import type { ChainSimulator } from '../../tools/chain-simulator/index.ts';
import { startHandClockedChain, until } from '../helpers/chain-simulator.ts';

const FINALIZED_LAG = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('signature subscriptions over the node websocket', () => {
  let sim: ChainSimulator;
  const opened: SignatureSubscriptions[] = [];

  beforeAll(async () => {
    ({ sim } = await startHandClockedChain(FINALIZED_LAG));
  });
  // What earlier cases sent is final, and what a case sends lands in a slot above the root.
  beforeEach(() => sim.advanceSlots(FINALIZED_LAG + 1));
  afterAll(async () => {
    for (const subscriptions of opened) subscriptions.close();
    await sim?.close();
  });

  const subscriptionsOn = (settings: { ttlMs?: number; commitment?: 'confirmed' | 'finalized' } = {}) => {
    const subscriptions = createSignatureSubscriptions({ wsUrl: sim.wsUrl, commitment: settings.commitment ?? 'finalized', reconnectMinMs: 20, reconnectMaxMs: 200, ...(settings.ttlMs ? { ttlMs: settings.ttlMs } : {}) });
    opened.push(subscriptions);
    return subscriptions;
  };
  /** A transaction just sent (an airdrop), not yet at any commitment. */
  const sent = async () => sim.airdrop((await generateKeyPairSigner()).address, 1_000_000n);
  const serverSubscriptions = async () => (await sim.state()).subscriptions;

  it('connects only once a signature is watched, and notifies it once, at the commitment', async () => {
    const subscriptions = subscriptionsOn();
    const before = await serverSubscriptions();
    await sleep(50);
    expect(subscriptions.connected()).toBe(false);
    const signature = await sent();
    let notified = 0;
    subscriptions.watch(signature, () => notified++);
    subscriptions.watch(signature, () => notified++);
    await until(async () => (await serverSubscriptions()) === before + 1);
    expect(subscriptions.connected()).toBe(true);
    // Landed and confirmed, not final: nothing yet.
    sim.advanceSlots(FINALIZED_LAG - 1);
    await sleep(50);
    expect(notified).toBe(0);
    sim.advanceSlots(2);
    await until(async () => notified > 0);
    await sleep(50);
    expect(notified).toBe(1);
    expect(subscriptions.watched()).toBe(0);
    expect(await serverSubscriptions()).toBe(before);
  });

  it('at confirmed, the notification comes with the confirmation', async () => {
    const subscriptions = subscriptionsOn({ commitment: 'confirmed' });
    const signature = await sent();
    let notified = false;
    subscriptions.watch(signature, () => (notified = true));
    await until(async () => subscriptions.connected());
    sim.advanceSlots(2);
    await until(async () => notified);
  });

  it('a cut websocket: reconnected with back-off, the watched signatures subscribed again; one final meanwhile is notified at once', async () => {
    const subscriptions = subscriptionsOn();
    const [first, second] = [await sent(), await sent()];
    const notified: string[] = [];
    subscriptions.watch(first, () => notified.push('first'));
    subscriptions.watch(second, () => notified.push('second'));
    await until(async () => subscriptions.connected());
    await sim.setFaults({ websocketDownMs: 300 });
    await until(async () => !subscriptions.connected());
    // Final while the socket is down: missed by the old subscription.
    sim.advanceSlots(FINALIZED_LAG + 2);
    await sleep(100);
    expect(notified).toEqual([]);
    // Refused until the fault ends, then reconnected: the node notifies what is already final.
    await until(async () => notified.length === 2, 5_000);
    expect(notified.sort()).toEqual(['first', 'second']);
    expect(subscriptions.connected()).toBe(true);
    // And it keeps working on the new connection.
    const third = await sent();
    let thirdNotified = false;
    subscriptions.watch(third, () => (thirdNotified = true));
    await sleep(50);
    sim.advanceSlots(FINALIZED_LAG + 1);
    await until(async () => thirdNotified);
  });

  it('a signature never notified is dropped after its time, and unsubscribed at the node', async () => {
    const subscriptions = subscriptionsOn({ ttlMs: 100 });
    const before = await serverSubscriptions();
    // Never sent: the node never has it.
    subscriptions.watch('5'.repeat(87), () => {
      throw new Error('never notified');
    });
    await until(async () => (await serverSubscriptions()) === before + 1);
    await until(async () => subscriptions.watched() === 0, 2_000);
    await until(async () => (await serverSubscriptions()) === before, 2_000);
  });
});
