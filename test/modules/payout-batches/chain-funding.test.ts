/**
 * A payout batch funded on the chain simulator (CHAIN_PROVIDER=solana-rpc): its address is a
 * sealed deposit address like a PAYOUT's, the deposit watcher scans it (its instruments hook) and
 * the deposit that brings the total funds the batch once; a second deposit is recorded, never
 * credited. The lines' orders then take their shares and the sandbox PSP pays them.
 */
import { type Address, address, type KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositsRepo } from '../../../src/modules/deposits/repo.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { buildTransfer, type Rpc, solanaRpcSettings, fundedSender, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;

describe('a payout batch funded on chain', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  let sender: KeyPairSigner;

  beforeAll(async () => {
    ({ sim, rpc, usdc } = await startHandClockedChain(FINALIZED_LAG));
    sender = await fundedSender(sim, usdc);
  });
  afterAll(() => sim?.close());

  const t = ordersTest(() => solanaRpcSettings(sim.url, usdc));
  const services = () => t.ctx.app.services;

  async function send(owner: string, units: bigint) {
    const { wire, signature } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(owner), amount: units });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    return signature as string;
  }

  it('is funded once by the watcher, and its lines are paid as orders', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const batch = (await t.call('POST', '/payout-batches', merchant, { token: 'USDC', items: [{ receiverId: receiver.id, amountCrypto: 3 }, { receiverId: receiver.id, amountCrypto: 2 }] })).json();
    const waiting = (await t.call('POST', `/payout-batches/${batch.id}/submit`, merchant)).json();
    const row = await t.ctx.database.db.selectFrom('deposit_addresses').select(['reference']).where('owner_address', '=', waiting.depositAddress).executeTakeFirstOrThrow();
    expect(row.reference).toBe(`payout-batch:${batch.id}`);

    const first = await send(waiting.depositAddress, 5_000_000n);
    await services().depositWatcher!.runPass();
    expect((await t.call('GET', `/payout-batches/${batch.id}`, merchant)).json()).toMatchObject({ status: 'PAYING', fundedCrypto: '5' });
    const second = await send(waiting.depositAddress, 1_000_000n);
    await services().depositWatcher!.runPass();
    const recorded = await depositsRepo.listOf(t.ctx.database.db, waiting.depositAddress);
    expect(recorded.map((d) => [d.signature, d.outcome, d.order_id])).toEqual([
      [first, 'CREDITED', null],
      [second, 'REPEATED', null],
    ]);

    await services().payoutBatches.funding.runPass();
    await t.drive();
    const done = (await t.call('GET', `/payout-batches/${batch.id}`, merchant)).json();
    expect(done).toMatchObject({ status: 'COMPLETED', fundedCrypto: '5', heldCrypto: '0', progress: { ordered: 2, completed: 2 } });
  });
});
