/**
 * Issue 40, item 7: fast recovery after kill -9. Twenty PAYINs in flight on a real chain (the
 * chain simulator, on PostgreSQL; skipped on PGlite runs): a worker process signs and sends each
 * transfer, which lands but is held short of finality; then the node stops answering, so the
 * worker's lanes hang inside their steps, each holding its claim on an order, and the worker is
 * killed with SIGKILL. A new worker process is started: it must take the dead worker's orders at
 * once (their claims name an instance whose session is gone: decision 0037), not wait out their
 * 30 s lease, and complete all twenty within 10 s of its start, each with the ONE transfer it
 * already had on chain. Before the change: 30.5 s, the dead claims' lease.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainWorkers, startChainWorkers } from '../helpers/chain-workers.ts';
import { waitFor } from '../helpers/processes.ts';

const ORDERS = 20;
/**
 * The bound, from the new worker's start (its instance registered: the service loaded and
 * connected) to the last order COMPLETED. Loading the service in a fresh Node process takes 3 s
 * on an idle 2-core machine and was seen at 9 s on a loaded one: the same before and after, and
 * not recovery, so it is printed but not bounded.
 */
const RECOVERY_BOUND_MS = 10_000;

describe('kill -9 of a worker during 20 in-flight PAYINs: a new worker completes them at once, one transfer each', () => {
  let bench: ChainWorkers | undefined;

  beforeAll(async () => {
    bench = await startChainWorkers();
  });
  afterAll(async () => {
    await bench?.close();
  });

  it('takes over the dead worker\'s claims without waiting for their lease', async (ctx) => {
    if (!bench) return ctx.skip();
    const { sim, database } = bench;
    const { db } = database;
    const payins = [];
    for (let i = 0; i < ORDERS; i++) payins.push(await bench.paidPayin());
    const ids = payins.map(({ order }) => order.id as string);
    const inFlight = () => db.selectFrom('orders').select(['id', 'status', 'tx_hash', 'claimed_until', 'completed_at']).where('id', 'in', ids).execute();

    // Every transfer sent and landed, none final: the orders poll in TRANSFERRING.
    await sim.setFaults({ finalityDelayMs: 120_000 });
    const landedBefore = sim.state().transactions.landed;
    const first = bench.startWorker();
    await waitFor(async () => {
      const rows = await inFlight();
      // Batched transfers (decision 0053): several orders may share one transaction.
      const transactions = new Set(rows.map((row) => row.tx_hash)).size;
      return rows.every((row) => row.status === 'TRANSFERRING') && sim.state().transactions.landed - landedBefore === transactions ? true : undefined;
    }, 60_000);
    const sent = new Map((await inFlight()).map((row) => [row.id, row.tx_hash]));

    // The node hangs: the worker's next polls block inside their steps, each order claimed (the client gives up after 10 s).
    await sim.setFaults({ hangMs: 60_000 });
    const claimed = async () => (await inFlight()).filter((row) => row.claimed_until !== null && row.claimed_until > new Date());
    await waitFor(async () => ((await claimed()).length >= 4 ? true : undefined), 8_000);
    await bench.kill(first);
    // The claims the dead worker left: without their release, nobody may take these orders before `claimed_until`.
    const deadClaims = new Map((await claimed()).map((row) => [row.id, row.claimed_until!]));
    expect(deadClaims.size).toBeGreaterThan(0);
    await sim.reset();

    const spawnedAt = Date.now();
    const next = bench.startWorker();
    const done = await waitFor(async () => {
      const rows = await inFlight();
      return rows.every((row) => row.status === 'COMPLETED') ? rows : undefined;
    }, 60_000);
    const lastCompleted = Math.max(...done.map((row) => row.completed_at!.getTime()));
    // The only instance left: the new worker (the dead one's row went when the new one started).
    const [restarted, ...others] = await db.selectFrom('workers').select('started_at').execute();
    expect(others).toEqual([]);
    const recoveryMs = lastCompleted - restarted!.started_at.getTime();
    console.info(
      `worker-kill-recovery: ${deadClaims.size} orders claimed by the dead worker; all ${ORDERS} COMPLETED ${recoveryMs} ms after the new worker started ` +
        `(${lastCompleted - spawnedAt} ms after its process was spawned)`,
    );

    // Each order held by the dead worker completed before its claim would have lapsed: released, not waited out.
    for (const row of done) {
      const claim = deadClaims.get(row.id);
      if (claim) expect(row.completed_at!.getTime(), `order ${row.id}`).toBeLessThan(claim.getTime());
    }
    expect(recoveryMs).toBeLessThan(RECOVERY_BOUND_MS);

    // Exactly one transfer each: the one sent before the kill, nothing new landed, nothing replaced.
    expect(sim.state().transactions.landed - landedBefore).toBe(new Set(sent.values()).size);
    const transfers = await db.selectFrom('order_transactions').select(['order_id', 'tx_hash', 'previous_tx_hashes']).where('order_id', 'in', ids).where('type', '=', 'CHAIN_TRANSFER').execute();
    expect(transfers).toHaveLength(ORDERS);
    for (const transfer of transfers) expect(transfer).toEqual({ order_id: transfer.order_id, tx_hash: sent.get(transfer.order_id), previous_tx_hashes: [] });
    for (const { order, wallet } of payins) expect(await bench.tokenBalance(wallet)).toBe(String(Math.round(Number(order.amountCrypto) * 1e6)));

    const exited = once(next, 'exit');
    next.kill('SIGTERM');
    await exited;
  }, 180_000);
});
