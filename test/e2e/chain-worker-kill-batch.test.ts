/**
 * Issue 44's kill -9 per batch (decision 0053), with real worker processes as
 * chain-worker-kill.test.ts (skipped on PGlite runs): 18 paid PAYINs, due together, go out in
 * batched transactions; the worker is killed between signing and sending a batch (it kills itself
 * once a transaction of several orders is committed: TEST_KILL_WORKER_AFTER_TRANSFER_STORED=batch),
 * and between sending and confirming (its transactions dropped by the node, or landed and not yet
 * final). The next worker completes every order with exactly one transfer each: each receiver's
 * balance is its order's amount, and the chain landed exactly the distinct transactions the orders
 * name.
 */
import { once } from 'node:events';
import type { Signature } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorRpc } from '../helpers/chain-simulator.ts';
import { type ChainWorkers, startChainWorkers } from '../helpers/chain-workers.ts';
import { waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** These workers batch (without the treasury's lookup tables, as every worker of test/helpers/chain-workers.ts). */
const BATCHED = { CHAIN_TRANSFER_BATCH_MAX: '20' };
const ORDERS = 18;

describe('kill -9 of the worker around a batch of 18 PAYINs: every order exactly once', () => {
  let bench: ChainWorkers | undefined;

  beforeAll(async () => {
    bench = await startChainWorkers({ slotMs: 100 });
  });
  afterAll(async () => {
    await bench?.close();
  });

  async function paidPayins(bench: ChainWorkers) {
    const paid: Array<{ order: Json; wallet: string }> = [];
    for (let i = 0; i < ORDERS; i++) paid.push(await bench.paidPayin());
    return paid;
  }

  const statuses = (bench: ChainWorkers, ids: string[]) => Promise.all(ids.map(async (id) => (await bench.orderRow(id)).status));
  /** Every order TRANSFERRING (sent, or stored to be sent) and `also` true. */
  const allTransferring = (bench: ChainWorkers, ids: string[], also: () => boolean) =>
    waitFor(async () => {
      const now = await statuses(bench, ids);
      if (process.env.DEBUG_KILL_BATCH) console.log(now.join(' '));
      return now.every((s) => s === 'TRANSFERRING') && also() ? true : undefined;
    }, 120_000);

  /** Every order COMPLETED, each receiver paid its amount once, one landed transaction per distinct signature. */
  async function expectEachOnce(bench: ChainWorkers, paid: Array<{ order: Json; wallet: string }>, landedBefore: number) {
    const ids = paid.map((p) => p.order.id as string);
    await waitFor(async () => ((await statuses(bench, ids)).every((s) => s === 'COMPLETED') ? true : undefined), 90_000);
    for (const { order, wallet } of paid) expect(await bench.tokenBalance(wallet)).toBe(String(Math.round(Number(order.amountCrypto) * 1e6)));
    const rows = await bench.database.db.selectFrom('order_transactions').select(['tx_hash', 'transfer_batch_id']).where('order_id', 'in', ids).where('type', '=', 'CHAIN_TRANSFER').execute();
    const signatures = new Set(rows.map((r) => r.tx_hash));
    expect(bench.sim.state().transactions.landed - landedBefore).toBe(signatures.size);
    // Batched: fewer transactions than orders.
    expect(signatures.size).toBeLessThan(ORDERS);
    return rows;
  }

  it('killed between signing and sending a batch: the next worker sends the stored bytes', async (ctx) => {
    if (!bench) return ctx.skip();
    const { sim, database, startWorker, kill } = bench;
    const paid = await paidPayins(bench);
    const landedBefore = sim.state().transactions.landed;
    const worker = startWorker({ ...BATCHED, TEST_KILL_WORKER_AFTER_TRANSFER_STORED: 'batch' });
    const [, signal] = await once(worker, 'exit');
    expect(signal).toBe('SIGKILL');
    // It died with a batch of several orders committed, never sent: the node knows nothing of it.
    const ids = paid.map((p) => p.order.id as string);
    const stored = await database.db.selectFrom('chain_transfer_batches').select(['tx_hash', 'order_ids', 'status']).where('status', '=', 'PENDING').execute();
    const killed = stored.find((b) => b.order_ids.length > 1 && b.order_ids.every((id) => ids.includes(id)))!;
    expect(killed).toBeDefined();
    const unknown = await simulatorRpc(sim.url).getSignatureStatuses([killed.tx_hash as Signature], { searchTransactionHistory: true }).send();
    expect(unknown.value).toEqual([null]);
    for (const id of killed.order_ids) expect(await bench.orderRow(id)).toEqual({ status: 'TRANSFERRING', tx_hash: killed.tx_hash });
    const next = startWorker(BATCHED);
    const rows = await expectEachOnce(bench, paid, landedBefore);
    // The killed batch's orders completed on its very bytes (its blockhash outlived the restart) or on its re-signed successor, never both.
    const onKilled = rows.filter((r) => r.tx_hash === killed.tx_hash).length;
    expect([0, killed.order_ids.length]).toContain(onKilled);
    await kill(next);
  }, 180_000);

  it('its batches dropped by the node, then killed: the next worker sends them again', async (ctx) => {
    if (!bench) return ctx.skip();
    const { sim, startWorker, kill } = bench;
    const paid = await paidPayins(bench);
    const ids = paid.map((p) => p.order.id as string);
    await sim.setFaults({ dropNext: 1_000_000 });
    const landedBefore = sim.state().transactions.landed;
    const worker = startWorker(BATCHED);
    await allTransferring(bench, ids, () => sim.state().transactions.dropped > 0);
    await kill(worker);
    await sim.reset();
    const next = startWorker(BATCHED);
    await expectEachOnce(bench, paid, landedBefore);
    await kill(next);
  }, 180_000);

  it('its batches landed but not final, then killed: the next worker confirms them, nothing new lands', async (ctx) => {
    if (!bench) return ctx.skip();
    const { sim, startWorker, kill, orderRow } = bench;
    const paid = await paidPayins(bench);
    const ids = paid.map((p) => p.order.id as string);
    await sim.setFaults({ finalityDelayMs: 60_000 });
    const landedBefore = sim.state().transactions.landed;
    const worker = startWorker(BATCHED);
    await allTransferring(bench, ids, () => sim.state().transactions.landed > landedBefore);
    await kill(worker);
    // Only a batch that had landed must keep its signature: one still in flight at the kill may
    // expire during the restart and be re-signed, which is the rule, not a second transfer.
    const sent = new Map(await Promise.all(ids.map(async (id) => [id, (await orderRow(id)).tx_hash] as const)));
    const signatures = [...new Set(sent.values())].filter((s): s is string => s !== null);
    const statuses = (await simulatorRpc(sim.url).getSignatureStatuses(signatures as Signature[], { searchTransactionHistory: true }).send()).value;
    const landed = new Set(signatures.filter((_, i) => statuses[i] !== null));
    expect(landed.size).toBeGreaterThan(0);
    await sim.reset();
    const next = startWorker(BATCHED);
    await expectEachOnce(bench, paid, landedBefore);
    for (const id of ids) if (landed.has(sent.get(id)!)) expect((await bench.orderRow(id)).tx_hash).toBe(sent.get(id));
    await kill(next);
  }, 180_000);
});
