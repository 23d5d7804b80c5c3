/**
 * Issue 26's kill -9, with a real worker process: the service configured for a real chain
 * (CHAIN_PROVIDER=solana-rpc) against the chain simulator, on one PostgreSQL (skipped on PGlite
 * runs). An API in this process takes a PAYIN and its (sandbox) PIX; a worker process (ROLES=worker,
 * src/main.ts) signs, stores and sends the transfer, and is killed with SIGKILL: between signing
 * and sending (it kills itself right after the signed transfer commits, by the test-only
 * TEST_KILL_WORKER_AFTER_TRANSFER_STORED of main.ts, honoured with NODE_ENV=test only), and
 * between sending and confirming, once with its transaction dropped by the node, once with it
 * landed but not yet final. A new worker process takes the order over at its start (the dead
 * one's claim names an instance whose session is gone: no lease to wait out, decision 0037) and
 * completes it with exactly ONE transfer on chain. The bench is test/helpers/chain-workers.ts.
 */
import { once } from 'node:events';
import { address, type Signature } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ata, simulatorRpc } from '../helpers/chain-simulator.ts';
import { type ChainWorkers, startChainWorkers } from '../helpers/chain-workers.ts';
import { waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('kill -9 of the worker between signing and sending, and between sending and confirming: exactly one transfer', () => {
  let bench: ChainWorkers | undefined;

  beforeAll(async () => {
    // 100 ms slots: a dropped transfer's blockhash lives 15 s, past a restart on a loaded machine
    // (at 40 ms, 6 s, CI once saw the next worker re-sign, rightly, instead of resending).
    bench = await startChainWorkers({ slotMs: 100 });
  });
  afterAll(async () => {
    await bench?.close();
  });

  async function expectOneTransfer(bench: ChainWorkers, order: Json, wallet: string) {
    const { orderRow, database } = bench;
    const done = await waitFor(async () => ((await orderRow(order.id)).status === 'COMPLETED' ? orderRow(order.id) : undefined), 30_000);
    expect(await bench.tokenBalance(wallet)).toBe(String(Math.round(Number(order.amountCrypto) * 1e6)));
    const transfer = await database.db.selectFrom('order_transactions').select(['tx_hash', 'previous_tx_hashes']).where('order_id', '=', order.id).where('type', '=', 'CHAIN_TRANSFER').executeTakeFirstOrThrow();
    expect(transfer.tx_hash).toBe(done.tx_hash);
    return transfer;
  }

  it('killed between signing and sending: the node never saw it, the next worker sends the stored bytes', async (ctx) => {
    if (!bench) return ctx.skip();
    const { sim, database, orderRow, startWorker, kill } = bench;
    const { sent: sentBefore, landed: landedBefore } = sim.state().transactions;
    const { order, wallet } = await bench.paidPayin();
    const worker = startWorker({ TEST_KILL_WORKER_AFTER_TRANSFER_STORED: 'true' });
    const [, signal] = await once(worker, 'exit');
    expect(signal).toBe('SIGKILL');
    // It died with the signed transfer committed and nothing sent: the node knows nothing of it.
    const stored = await database.db.selectFrom('order_transactions').select(['tx_hash', 'wire']).where('order_id', '=', order.id).where('type', '=', 'CHAIN_TRANSFER').executeTakeFirstOrThrow();
    expect(await orderRow(order.id)).toEqual({ status: 'TRANSFERRING', tx_hash: stored.tx_hash });
    expect(stored.wire).toEqual(expect.any(String));
    expect(sim.state().transactions.sent).toBe(sentBefore);
    const rpc = simulatorRpc(sim.url);
    const unknown = await rpc.getSignatureStatuses([stored.tx_hash as Signature], { searchTransactionHistory: true }).send();
    expect(unknown.value).toEqual([null]);
    const next = startWorker();
    const transfer = await expectOneTransfer(bench, order, wallet);
    expect(transfer).toEqual({ tx_hash: stored.tx_hash, previous_tx_hashes: [] });
    expect(sim.state().transactions.landed - landedBefore).toBe(1);
    // The receiver's token account has exactly one transaction: the stored one.
    const history = await rpc.getSignaturesForAddress(await ata(address(wallet), address(bench.usdc))).send();
    expect(history.map((entry) => entry.signature)).toEqual([stored.tx_hash]);
    await kill(next);
  }, 60_000);

  it('its transaction dropped by the node: the next worker sends the same bytes', async (ctx) => {
    if (!bench) return ctx.skip();
    const { sim, orderRow, startWorker, kill } = bench;
    await sim.setFaults({ dropNext: 1_000_000 });
    const { order, wallet } = await bench.paidPayin();
    const worker = startWorker();
    await waitFor(async () => ((await orderRow(order.id)).status === 'TRANSFERRING' && sim.state().transactions.dropped > 0 ? true : undefined), 30_000);
    const sent = (await orderRow(order.id)).tx_hash;
    await kill(worker);
    await sim.reset();
    const landedBefore = sim.state().transactions.landed;
    const next = startWorker();
    const transfer = await expectOneTransfer(bench, order, wallet);
    expect(transfer).toEqual({ tx_hash: sent, previous_tx_hashes: [] });
    expect(sim.state().transactions.landed - landedBefore).toBe(1);
    await kill(next);
  });

  it('its transaction landed but not yet final: the next worker confirms it, sends nothing new', async (ctx) => {
    if (!bench) return ctx.skip();
    const { sim, orderRow, startWorker, kill } = bench;
    await sim.setFaults({ finalityDelayMs: 60_000 });
    const landedBefore = sim.state().transactions.landed;
    const { order, wallet } = await bench.paidPayin();
    const worker = startWorker();
    await waitFor(async () => ((await orderRow(order.id)).status === 'TRANSFERRING' && sim.state().transactions.landed > landedBefore ? true : undefined), 30_000);
    const sent = (await orderRow(order.id)).tx_hash;
    await kill(worker);
    await sim.reset();
    const next = startWorker();
    const transfer = await expectOneTransfer(bench, order, wallet);
    expect(transfer).toEqual({ tx_hash: sent, previous_tx_hashes: [] });
    expect(sim.state().transactions.landed - landedBefore).toBe(1);
    await kill(next);
  });
});
