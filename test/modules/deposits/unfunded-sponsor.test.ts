/**
 * An unfunded sponsor on the chain simulator (issue 40, item 2: PAYOUT sweeps stalled silently,
 * the only line "deposit sweep expired without landing: rebuilt"). The sponsor pays every sweep:
 * with no SOL, its reading raises `sponsor_low_balance` and logs a warning naming its address
 * (never its key); the sweeps wait and say why instead of sending transactions that cannot land
 * (no sweep started, an expired one not rebuilt, no attempt spent); funded, the same sweeps go
 * through, and the gauge and the log say it is back.
 */
import { type Address, address, type KeyPairSigner } from '@solana/kit';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolanaSweeps } from '../../../src/adapters/chain/solana-sweeps.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createWorkerJobs } from '../../../src/jobs.ts';
import { createKeyCustody } from '../../../src/key-custody.ts';
import { createLogger } from '../../../src/logger.ts';
import { registerSweepMetrics } from '../../../src/modules/deposits/metrics.ts';
import { createSweeper } from '../../../src/modules/deposits/sweeps.ts';
import { Registry } from 'prom-client';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { buildTransfer, type Rpc, solanaRpcSettings, fundedSender, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const FINALIZED_LAG = 3;

const lines: Json[] = [];
const logger = createLogger('info', new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json));
    done();
  },
}));
const logged = (msg: RegExp) => lines.filter((line) => msg.test(String(line.msg)));

describe('an unfunded sponsor', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  let sender: KeyPairSigner;
  let sponsor: string;
  /** The PAYOUT whose deposit waits for the sponsor through the tests below. */
  let waitingOrder: Json;

  beforeAll(async () => {
    ({ sim, rpc, usdc } = await startHandClockedChain(FINALIZED_LAG));
    sender = await fundedSender(sim, usdc);
  });
  afterAll(() => sim?.close());

  const t = ordersTest(() => solanaRpcSettings(sim.url, usdc), { logger });
  const services = () => t.ctx.app.services;
  const db = () => t.ctx.database.db;
  const metrics = createMetrics();
  /** The worker's sponsor-balance job, its gauges on `metrics`, as main.ts builds it. */
  const sponsorJob = () => createWorkerJobs(services(), t.ctx.config, metrics).find((job) => job.name === 'sponsor-balance')!;
  const gauge = async (name: string) => (await metrics.registry.getSingleMetric(name)!.get()).values.map((v) => ({ labels: v.labels, value: v.value }));
  /** deposit_sweeps_by_state as a fresh scrape reads it (the gauge's own read is cached 10 s). */
  const sweepStates = async () => {
    const registry = new Registry();
    registerSweepMetrics(registry, db(), t.clock);
    return Object.fromEntries((await registry.getSingleMetric('deposit_sweeps_by_state')!.get()).values.map((v) => [v.labels.state, v.value]));
  };
  const sweepOf = (order: Json) => db().selectFrom('deposit_sweeps').selectAll().where('deposit_address', '=', order.depositAddress as string).executeTakeFirst();

  beforeAll(() => {
    sponsor = services().platformKeysAtStart.signers.SPONSOR.address;
  });

  /** A PAYOUT of `amount` USDC, paid on chain and credited by the watcher. */
  async function credited(amount: number) {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: amount, sourceToken: 'USDC' });
    const { wire } = await buildTransfer(rpc, { payer: sender, mint: usdc, to: address(order.depositAddress as string), amount: BigInt(amount * 1e6) });
    await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(FINALIZED_LAG + 1);
    await services().depositWatcher!.runPass();
    return order;
  }

  it('raises sponsor_low_balance and logs a warning naming the sponsor, once per crossing', async () => {
    await sponsorJob().run(new AbortController().signal);
    expect(await gauge('sponsor_low_balance')).toEqual([{ labels: { address: sponsor }, value: 1 }]);
    expect(await gauge('sponsor_balance_sol')).toEqual([{ labels: { address: sponsor }, value: 0 }]);
    expect(await gauge('sponsor_low_balance_threshold_sol')).toEqual([{ labels: {}, value: 0.05 }]);
    const warnings = logged(/^sponsor SOL balance below SPONSOR_LOW_BALANCE/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, sponsor, balance: '0', threshold: '0.05' });
    expect(warnings[0]!.msg).toMatch(/deposit sweeps wait/);
    // Still low at the next reading: the gauge stays, the warning is not repeated.
    await sponsorJob().run(new AbortController().signal);
    expect(logged(/^sponsor SOL balance below/)).toHaveLength(1);
    expect((await metrics.registry.metrics()).match(/^sponsor_low_balance\{.*$/m)?.[0]).toBe(`sponsor_low_balance{address="${sponsor}"} 1`);
  });

  it('a credited deposit waits, no sweep sent, and the log says the sponsor cannot pay', async () => {
    waitingOrder = await credited(5);
    const sent = sim.state().transactions.sent;
    const result = await services().sweeper!.runPass();
    expect(result).toMatchObject({ prepared: 0, waitingForSponsor: 1 });
    expect(await sweepOf(waitingOrder)).toBeUndefined();
    expect(sim.state().transactions.sent).toBe(sent);
    const waiting = logged(/^deposit sweeps waiting/);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ level: 40, sponsor, balance: '0', waitingSweeps: 1 });
    expect(waiting[0]!.msg).toMatch(/fund the sponsor's address/);
    // At most once a minute: the next pass waits quietly.
    await services().sweeper!.runPass();
    expect(logged(/^deposit sweeps waiting/)).toHaveLength(1);
    expect(await sweepStates()).toEqual({ WAITING: 1, PENDING: 0, FAILED: 0 });
  });

  it('an expired sweep is not rebuilt while the sponsor cannot pay: no attempt spent', async () => {
    const order = waitingOrder;
    // Stored by a sweeper that does not know the sponsor's funds and dies before sending it.
    const { depositVault } = createKeyCustody({ config: t.ctx.config, db: db(), clock: t.clock });
    const dying = createSweeper({
      db: db(),
      clock: t.clock,
      chain: createSolanaSweeps({ settings: { rpcUrl: sim.url, commitment: 'finalized', tokenMints: { USDC: usdc } }, sponsor: services().platformKeysAtStart.signers.SPONSOR, treasuryAddress: services().platformKeysAtStart.signers.TREASURY.address }),
      vault: depositVault,
      postSweepCosts: (trx, o, costs, at) => services().ledger.postSweepCosts(trx, o, costs, at),
      settings: { batchSize: 100, maxAttempts: 3 },
      afterSweepStored: () => {
        throw new Error('killed');
      },
    });
    await dying.runPass();
    const stored = (await sweepOf(order))!;
    sim.advanceSlots(Number(BigInt(stored.last_valid_block_height) - BigInt(sim.state().slot)) + FINALIZED_LAG + 2);
    t.clock.advance(61_000);
    const result = await services().sweeper!.runPass();
    expect(result).toMatchObject({ prepared: 0, waitingForSponsor: 1 });
    expect(await sweepOf(order)).toMatchObject({ status: 'PENDING', tx_hash: stored.tx_hash, attempt: 1 });
    expect(logged(/expired without landing: rebuilt/)).toEqual([]);
    expect(logged(/^deposit sweeps waiting/).at(-1)).toMatchObject({ sponsor, waitingSweeps: result.waitingForSponsor });
    expect(await sweepStates()).toEqual({ WAITING: 0, PENDING: 1, FAILED: 0 });
  });

  it('funded, the gauge falls, the log says so, and the waiting sweeps go through', async () => {
    await sim.airdrop(address(sponsor), 1_000_000_000n);
    await sponsorJob().run(new AbortController().signal);
    expect(await gauge('sponsor_low_balance')).toEqual([{ labels: { address: sponsor }, value: 0 }]);
    expect(await gauge('sponsor_balance_sol')).toEqual([{ labels: { address: sponsor }, value: 1 }]);
    expect(logged(/^sponsor SOL balance back above/)).toEqual([expect.objectContaining({ level: 30, sponsor, balance: '1' })]);
    const fresh = await credited(3);
    for (let pass = 0; pass < 20; pass++) {
      await services().sweeper!.runPass();
      const statuses = await db().selectFrom('deposit_sweeps').select('status').execute();
      if (statuses.length === 2 && statuses.every((s) => s.status === 'DONE')) break;
      sim.advanceSlots(1);
    }
    // The expired one rebuilt once, the new one sent once.
    expect(await sweepOf(waitingOrder)).toMatchObject({ status: 'DONE', attempt: 2 });
    expect(await sweepOf(fresh)).toMatchObject({ status: 'DONE', attempt: 1 });
    expect(await sweepStates()).toEqual({ WAITING: 0, PENDING: 0, FAILED: 0 });
    expect(logged(/expired without landing: rebuilt/)).toHaveLength(1);
  });

  it('the log never holds a key: no line carries the KEK or a field but the sponsor\'s public address', () => {
    const text = JSON.stringify(lines);
    expect(text).not.toContain(t.ctx.config.walletKek);
    for (const line of [...logged(/^sponsor SOL/), ...logged(/^deposit sweeps waiting/)]) {
      const fields = Object.keys(line).filter((key) => !['level', 'time', 'pid', 'hostname', 'service', 'msg'].includes(key));
      expect(fields, String(line.msg)).toEqual(expect.arrayContaining(['sponsor', 'balance']));
      expect(fields.every((key) => ['sponsor', 'balance', 'threshold', 'sweepMinimum', 'waitingSweeps'].includes(key)), JSON.stringify(line)).toBe(true);
    }
  });
});
