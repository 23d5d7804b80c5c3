/**
 * PAYOUT deposits woken by account subscriptions (decision 0055, issue 44 item 3), on the chain
 * simulator with SOLANA_WS_URL its websocket: a pass subscribes every watched token account
 * (accountSubscribe at finalized); a deposit's notification scans its address at once, without a
 * pass; the passes between full reads read no covered balance; with the websocket down every pass
 * reads them all again, and a deposit is found by polling as before.
 */
import { type Address, address, type KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersRepo } from '../../../src/modules/orders/repo.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { ata, buildTransfer, type Rpc, solanaRpcSettings, fundedSender, startHandClockedChain, until } from '../../helpers/chain-simulator.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;
const FULL_READ_MS = 30_000;

describe('PAYOUT deposits woken by account subscriptions', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  let sender: KeyPairSigner;

  beforeAll(async () => {
    ({ sim, rpc, usdc } = await startHandClockedChain(FINALIZED_LAG));
    sender = await fundedSender(sim, usdc);
  });
  afterAll(() => sim?.close());

  const t = ordersTest(() => ({ ...solanaRpcSettings(sim.url, usdc), SOLANA_WS_URL: sim.wsUrl, CHAIN_DEPOSIT_FULL_READ_INTERVAL_MS: String(FULL_READ_MS) }));
  const services = () => t.ctx.app.services;
  const watcher = () => services().depositWatcher!;
  const subscriptions = () => services().accountSubscriptions!;
  const orderOf = async (order: Json) => (await ordersRepo.find(t.ctx.database.db, order.id as string))!;

  async function payout(amountCrypto: number) {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto, sourceToken: 'USDC' });
    return { order, tokenAccount: await ata(address(order.depositAddress as string), usdc) };
  }

  /** A real transfer to the order's address, landed in one slot: confirmed, not final. */
  async function sendLanded(owner: string, units: bigint) {
    const { wire, signature } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(owner), amount: units });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(1);
    return signature as string;
  }

  it('a pass subscribes the address; its deposit, once final, is credited by the notification alone; the next pass reads no covered balance', async () => {
    const { order, tokenAccount } = await payout(20);
    await watcher().runPass();
    await until(async () => subscriptions().covered(tokenAccount) !== undefined);
    // Covered since the pass before: its balance is no longer read between full reads.
    await watcher().runPass();
    t.clock.advance(1000);
    expect((await watcher().runPass()).balancesRead).toBe(0);

    const signature = await sendLanded(order.depositAddress, 20_000_000n);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await orderOf(order)).status).toBe('AWAITING_DEPOSIT');
    sim.advanceSlots(FINALIZED_LAG);
    await until(async () => (await orderOf(order)).status === 'DEPOSIT_RECEIVED');
    expect((await orderOf(order)).tx_hash).toBe(signature);
    await watcher().drain();

    // A full read is due again after its interval: every balance, none credited twice.
    t.clock.advance(FULL_READ_MS);
    const full = await watcher().runPass();
    expect(full.balancesRead).toBeGreaterThan(0);
    expect(full.deposits).toBe(0);
  });

  it('with the websocket down, every pass reads the balances and finds the deposit by polling; the subscriptions come back after', async () => {
    const { order, tokenAccount } = await payout(10);
    await watcher().runPass();
    await until(async () => subscriptions().covered(tokenAccount) !== undefined);
    await sim.setFaults({ websocketDownMs: 60_000 });
    await until(async () => !subscriptions().connected());
    expect(subscriptions().covered(tokenAccount)).toBeUndefined();
    await sendLanded(order.depositAddress, 10_000_000n);
    sim.advanceSlots(FINALIZED_LAG);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await orderOf(order)).status).toBe('AWAITING_DEPOSIT');
    const polled = await watcher().runPass();
    expect(polled.balancesRead).toBeGreaterThan(0);
    expect((await orderOf(order)).status).toBe('DEPOSIT_RECEIVED');

    await sim.setFaults({ websocketDownMs: 0 });
    const next = await payout(10);
    await watcher().runPass();
    await until(async () => subscriptions().covered(next.tokenAccount) !== undefined, 40_000);
    await watcher().runPass();
    await sendLanded(next.order.depositAddress, 10_000_000n);
    sim.advanceSlots(FINALIZED_LAG);
    await until(async () => (await orderOf(next.order)).status === 'DEPOSIT_RECEIVED');
  }, 60_000);
});
