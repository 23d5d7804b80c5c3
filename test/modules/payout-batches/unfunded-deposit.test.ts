/**
 * A payout batch deposit that never funds it (decision 0051), on the chain simulator: a deposit
 * below the total is counted toward the batch (fundedCrypto) but is in no book, so the treasury
 * reconciliation never counts it in flight; when the batch's prices expire (paused or not), or it
 * is cancelled, before its deposits covered the total, what arrived becomes UNFUNDED (held for an
 * operator to return, as a LATE deposit), shown as the batch's heldCrypto, and is never swept.
 */
import { type Address, address, type KeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { depositsRepo } from '../../../src/modules/deposits/repo.ts';
import { treasuryRepo } from '../../../src/modules/treasury/repo.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { buildTransfer, type Rpc, solanaRpcSettings, fundedSender, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;

describe('a payout batch deposit below its total that never funds it', () => {
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
  const db = () => t.ctx.database.db;

  async function send(owner: string, units: bigint) {
    const { wire } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(owner), amount: units });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    await services().depositWatcher!.runPass();
  }

  /** A batch of 3 + 2 USDC, submitted, and 2 USDC of its 5 sent to its address. */
  async function partlyFunded(): Promise<{ merchant: Awaited<ReturnType<typeof t.merchantWithReceiver>>['merchant']; batch: Json }> {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const created = (await t.call('POST', '/payout-batches', merchant, { token: 'USDC', items: [{ receiverId: receiver.id, amountCrypto: 3 }, { receiverId: receiver.id, amountCrypto: 2 }] })).json();
    const batch = (await t.call('POST', `/payout-batches/${created.id}/submit`, merchant)).json();
    await send(batch.depositAddress, 2_000_000n);
    expect((await t.call('GET', `/payout-batches/${batch.id}`, merchant)).json()).toMatchObject({ status: 'AWAITING_FUNDING', fundedCrypto: '2', fundedAt: null, heldCrypto: '0' });
    return { merchant, batch };
  }

  const outcomes = async (depositAddress: string) => (await depositsRepo.listOf(db(), depositAddress)).map((d) => [decimal(d.amount).toString(), d.outcome]);
  const unsweptUsdc = async () => decimal((await treasuryRepo.unsweptDeposits(db())).find((sum) => sum.token === 'USDC')?.amount ?? '0').toString();

  it('is never in flight for the treasury; when the batch expires it is held for return, out of the batch, and a later deposit is LATE', async () => {
    const before = await unsweptUsdc();
    const { merchant, batch } = await partlyFunded();
    expect(await unsweptUsdc()).toBe(before);

    t.clock.set(new Date(new Date(batch.ratesExpireAt).getTime() + 1_000));
    await services().payoutBatches.funding.runPass();
    expect((await t.call('GET', `/payout-batches/${batch.id}`, merchant)).json()).toMatchObject({ status: 'EXPIRED', fundedCrypto: '2', fundedAt: null, heldCrypto: '2', progress: { valid: 0, ordered: 0 } });
    await send(batch.depositAddress, 3_000_000n);
    expect(await outcomes(batch.depositAddress)).toEqual([
      ['2', 'UNFUNDED'],
      ['3', 'LATE'],
    ]);
    expect((await t.call('GET', `/payout-batches/${batch.id}`, merchant)).json()).toMatchObject({ status: 'EXPIRED', fundedCrypto: '2' });
    expect(await unsweptUsdc()).toBe(before);
    await services().sweeper!.runPass();
    expect(await db().selectFrom('deposit_sweeps').select('status').where('payout_batch_id', '=', batch.id).executeTakeFirst()).toBeUndefined();
  });

  it('a batch paused before it was funded expires too, and a cancelled one holds what arrived', async () => {
    const paused = await partlyFunded();
    expect((await t.call('POST', `/payout-batches/${paused.batch.id}/pause`, paused.merchant)).json().status).toBe('PAUSED');
    const cancelled = await partlyFunded();
    expect((await t.call('POST', `/payout-batches/${cancelled.batch.id}/cancel`, cancelled.merchant)).json()).toMatchObject({ status: 'CANCELLED', fundedCrypto: '2', heldCrypto: '2' });
    expect(await outcomes(cancelled.batch.depositAddress)).toEqual([['2', 'UNFUNDED']]);

    t.clock.set(new Date(new Date(paused.batch.ratesExpireAt).getTime() + 1_000));
    await services().payoutBatches.funding.runPass();
    expect((await t.call('GET', `/payout-batches/${paused.batch.id}`, paused.merchant)).json()).toMatchObject({ status: 'EXPIRED', heldCrypto: '2' });
    expect(await outcomes(paused.batch.depositAddress)).toEqual([['2', 'UNFUNDED']]);
  });
});
