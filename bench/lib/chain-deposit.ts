/**
 * Issue 27's scenario `chain-deposit`: PAYOUT deposits on the chain simulator (the service with
 * CHAIN_PROVIDER=solana-rpc, SOLANA_COMMITMENT=finalized).
 *
 * 1. Deposit on chain → PAYOUT COMPLETED: N PAYOUTs created through the API, then each deposited
 *    by `POST /sandbox/orders/{id}/deposit` (a real SPL transfer from the sandbox depositor, 202
 *    with the signature); per order, from the 202 to order.deposit_received (the watcher found it
 *    final) and to order.completed (the sandbox PSP confirmed the PIX out). Run with only the
 *    bench's orders open, then again with `openAddresses` more PAYOUTs awaiting their deposit.
 * 2. The watcher's cost against open addresses: PAYOUTs AWAITING_DEPOSIT and their deposit
 *    addresses seeded by SQL (random addresses, no key: the watcher never opens one), then
 *    watcher passes run in this process (the service's own code, createDepositWatcher over
 *    createSolanaDeposits) against the same simulator, the service stopped so nothing else scans:
 *    time per pass, RPC calls per pass (counted on this process's fetch) and per minute at the
 *    service's interval, and the time of the query that reads every watched address.
 *    A pass reads every balance (getMultipleAccounts, 100 a call) and lists signatures only
 *    where one moved, plus `batch` of the least recently scanned (the safety rotation).
 */
import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { createAccountSubscriptions } from '../../src/adapters/chain/solana-account-subscriptions.ts';
import { createSolanaDeposits } from '../../src/adapters/chain/solana-deposits.ts';
import { openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { depositsRepo } from '../../src/modules/deposits/repo.ts';
import { createDepositWatcher } from '../../src/modules/deposits/watcher.ts';
import type { Api } from './api.ts';
import { simulatorRpc } from '../../test/helpers/chain-simulator.ts';
import { cpuSeconds, sampleCommitments, type SimulatorProcess } from './chain-payin.ts';
import { withClient } from './database.ts';
import { pool, round } from './load.ts';
import { benchCnpj } from './webhooks.ts';

const base58 = getBase58Decoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
const randomAddress = () => base58.decode(randomBytes(32));

export interface DepositLatencyFigures {
  /** PAYOUTs awaiting a deposit besides the measured ones (seeded). */
  openAddresses: number;
  orders: number;
  completed: number;
  /** 202 of the deposit → order.deposit_received. */
  detectP50Ms: number;
  detectP99Ms: number;
  /**
   * The node finalizing the deposit's slot (sampled every 20 ms) → order.deposit_received: what
   * the watcher adds to finality (issue 44 item 3: at most 1 s). The simulator's slots drift on a
   * loaded machine, so 32 × slot is not the finality a deposit saw; this is.
   */
  afterFinalityP50Ms: number;
  afterFinalityP99Ms: number;
  /** 202 of the deposit → order.completed. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  wallSeconds: number;
  serviceCpuSeconds: number;
  simulatorCpuSeconds: number;
  timedOut: boolean;
}

export interface WatcherCostFigures {
  openAddresses: number;
  batch: number;
  passes: number;
  passP50Ms: number;
  passP99Ms: number;
  /** RPC calls per pass (getMultipleAccounts per 100 addresses, getSignaturesForAddress for the rotation's `batch`: no deposits on the seeded addresses). */
  callsPerPass: number;
  /** At the service's pace: passes back to back + the interval between them. */
  callsPerMinuteAtInterval: number;
  /** While a pass runs, back to back. */
  callsPerSecond: number;
  /** The query that reads every watched address with its stored balance, alone, mean of 5 after 3 warm-up passes. */
  pickQueryMs: number;
  /** Every open address's signatures listed once by the safety rotation at the service's pace (its balance is read every pass). */
  rotationSecondsAtInterval: number;
  intervalMs: number;
  /**
   * With account subscriptions (decision 0055): every account subscribed first, then the passes
   * on a clock moved by the interval each (a full read every `fullReadIntervalMs`); calls per
   * pass and per minute are averaged over that span, full reads included.
   */
  subscribed?: { fullReadIntervalMs: number; subscribeMs: number };
}

async function receivers(api: Api, count: number, documentOffset: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const receiver = await api.post<{ id: string }>('/api/v1/receivers', {
      type: 'PJ',
      document: benchCnpj(documentOffset + i),
      name: `Bench Deposit Receiver ${i}`,
      email: `deposit${documentOffset + i}@bench.example`,
      walletAddress: randomAddress(),
      limits: { nightTransactionsEnabled: true },
    });
    await api.post(`/api/v1/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    ids.push(receiver.id);
  }
  return ids;
}

/** The sandbox depositor funded with the token by the simulator's admin (the operator's part). */
export async function fundDepositor(api: Api, sim: SimulatorProcess, units: bigint): Promise<string> {
  const depositor = await api.get<{ address: string }>('/api/v1/sandbox/chain/depositor?token=USDC');
  const response = await fetch(`${sim.adminUrl}/mint-to`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mint: sim.usdc, owner: depositor.address, amount: units.toString() }) });
  if (!response.ok) throw new Error(`mint-to: ${response.status} ${await response.text()}`);
  return depositor.address;
}

export async function depositLatency(
  api: Api,
  dbUrl: string,
  sim: SimulatorProcess,
  options: { orders: number; openAddresses: number; documentOffset: number; servicePid: number; waitSeconds: number; log: (m: string) => void },
): Promise<DepositLatencyFigures> {
  const receiverIds = await receivers(api, 5, options.documentOffset);
  options.log(`chain-deposit: creating ${options.orders} PAYOUTs (${options.openAddresses} other addresses open)`);
  const ids = await pool(options.orders, 10, 300_000, async (i) => (await api.post<{ id: string }>('/api/v1/payout', { receiverId: receiverIds[i % receiverIds.length], amountCrypto: 10, sourceToken: 'USDC' })).id);
  const cpu0 = { service: cpuSeconds(options.servicePid), sim: cpuSeconds(sim.child.pid) };
  const sentAt = new Map<string, number>();
  const sampler = sampleCommitments(sim);
  options.log('chain-deposit: depositing on chain (10 in flight)');
  await pool(ids.length, 10, 300_000, async (i) => {
    await api.request('POST', `/api/v1/sandbox/orders/${ids[i]}/deposit`, {}, {}, [202]);
    sentAt.set(ids[i]!, Date.now());
  });
  const query = `
    select d.payload->>'orderId' as id, extract(epoch from d.created_at) * 1000 as detected, extract(epoch from c.created_at) * 1000 as done, o.tx_hash
    from events d join events c on c.payload->>'orderId' = d.payload->>'orderId' and c.event_type = 'order.completed'
    join orders o on o.id = (d.payload->>'orderId')::uuid
    where d.event_type = 'order.deposit_received' and d.payload->>'orderId' = any($1::text[])`;
  let rows: Array<{ id: string; detected: number; done: number; txHash: string }> = [];
  const deadline = Date.now() + options.waitSeconds * 1000;
  while (Date.now() < deadline) {
    rows = await withClient(dbUrl, async (client) =>
      (await client.query<{ id: string; detected: string; done: string; tx_hash: string }>(query, [ids])).rows.map((r) => ({ id: r.id, detected: Number(r.detected), done: Number(r.done), txHash: r.tx_hash })),
    );
    if (rows.length >= ids.length) break;
    await sleep(250);
  }
  await sampler.stop();
  const cpu1 = { service: cpuSeconds(options.servicePid), sim: cpuSeconds(sim.child.pid) };
  const slots = rows.length ? (await simulatorRpc(sim.url).getSignatureStatuses(rows.map((r) => r.txHash) as never[], { searchTransactionHistory: true }).send()).value : [];
  const afterFinality = rows.map((r, i) => r.detected - sampler.reached('finalized', Number(slots[i]?.slot ?? Infinity))).sort((a, b) => a - b);
  const detect = rows.map((r) => r.detected - sentAt.get(r.id)!).sort((a, b) => a - b);
  const total = rows.map((r) => r.done - sentAt.get(r.id)!).sort((a, b) => a - b);
  const firstSent = Math.min(...sentAt.values());
  const lastDone = rows.length ? Math.max(...rows.map((r) => r.done)) : Date.now();
  return {
    openAddresses: options.openAddresses,
    orders: ids.length,
    completed: rows.length,
    detectP50Ms: round(percentile(detect, 50)),
    detectP99Ms: round(percentile(detect, 99)),
    afterFinalityP50Ms: round(percentile(afterFinality, 50)),
    afterFinalityP99Ms: round(percentile(afterFinality, 99)),
    p50Ms: round(percentile(total, 50)),
    p99Ms: round(percentile(total, 99)),
    maxMs: round(total.at(-1) ?? NaN),
    wallSeconds: round((lastDone - firstSent) / 1000),
    serviceCpuSeconds: round(cpu1.service - cpu0.service),
    simulatorCpuSeconds: round(cpu1.sim - cpu0.sim),
    timedOut: rows.length < ids.length,
  };
}

/**
 * `count` PAYOUTs AWAITING_DEPOSIT (expiring in a day) of `merchantId`, each with a deposit address
 * row: random owner and token account, a placeholder instead of a sealed key. By SQL: 10k orders
 * through the API would be minutes of the shared machine for no figure of interest.
 */
export async function seedOpenPayouts(dbUrl: string, merchantId: string, mint: string, count: number): Promise<number> {
  const started = performance.now();
  const owners = Array.from({ length: count }, randomAddress);
  const accounts = Array.from({ length: count }, randomAddress);
  await withClient(dbUrl, async (client) => {
    const receiver = (await client.query<{ id: string }>(`select id from receivers where merchant_id = $1 and status = 'ACTIVE' limit 1`, [merchantId])).rows[0]!.id;
    await client.query(
      `with s as (select gen_random_uuid() as id, o, a from unnest($3::text[], $4::text[]) as t(o, a)),
       d as (
         insert into deposit_addresses (reference, token, mint, owner_address, token_account, encrypted_private_key, key_version)
         select id::text, 'USDC', $5, o, a, 'seeded-no-key', 1 from s returning reference
       )
       insert into orders (id, merchant_id, receiver_id, type, status, chain, token, amount_brl, amount_token, exchange_rate,
                           platform_fee_percentage, merchant_fee_percentage, platform_fee_amount_brl, merchant_fee_amount_brl, net_amount_brl,
                           pix_key, pix_key_type, recipient_name, deposit_address, limit_day, limit_released, expires_at, step_attempts, created_at, updated_at)
       select id, $1, $2, 'PAYOUT', 'AWAITING_DEPOSIT', 'solana', 'USDC', 54.00, 10, 5.40, 0.01, 0.005, 0.54, 0.27, 53.19,
              '52998224725', 'CPF', 'Bench Receiver', o, (now() at time zone 'America/Sao_Paulo')::date, false, now() + interval '1 day', 0, now(), now()
       from s`,
      [merchantId, receiver, owners, accounts, mint],
    );
    await client.query('analyze orders; analyze deposit_addresses');
  });
  return round(performance.now() - started);
}

/**
 * Only `count` of the seeded PAYOUTs left open (the others EXPIRED long ago, so no longer watched):
 * every count is seeded before the service stops (its latency rounds), and the watcher's cost is
 * then measured at each count in turn.
 */
export async function keepOpen(dbUrl: string, count: number): Promise<void> {
  await withClient(dbUrl, async (client) => {
    await client.query(
      `with seeded as (
         select id, row_number() over (order by id) as n from orders
         where type = 'PAYOUT' and recipient_name = 'Bench Receiver' and pix_key = '52998224725'
       )
       update orders o set
         status = case when s.n <= $1 then 'AWAITING_DEPOSIT' else 'EXPIRED' end,
         expires_at = case when s.n <= $1 then now() + interval '1 day' else now() - interval '365 days' end
       from seeded s where o.id = s.id`,
      [count],
    );
    // Their other mints as good as read: the retiring step (getTokenAccountsByOwner twice per address) is not what is measured.
    await client.query(`update deposit_addresses d set other_mints_checked_at = now() from orders o where o.deposit_address = d.owner_address and o.status = 'EXPIRED' and o.recipient_name = 'Bench Receiver'`);
    await client.query('analyze orders');
  });
}

/** Watcher passes in this process over the open addresses (the service stopped); RPC calls counted on fetch. */
export async function watcherCost(
  dbUrl: string,
  sim: SimulatorProcess,
  options: { openAddresses: number; batch: number; passes: number; intervalMs: number; subscribed?: { fullReadIntervalMs: number } },
): Promise<WatcherCostFigures> {
  const handle = await openDatabase({ driver: 'postgres', url: dbUrl, poolMax: 2 });
  const realFetch = globalThis.fetch;
  let calls = 0;
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (String(input instanceof Request ? input.url : input).startsWith(sim.url)) calls += 1;
    return realFetch(input, init);
  }) as typeof fetch;
  const accounts = options.subscribed ? createAccountSubscriptions({ wsUrl: sim.url.replace(/^http/, 'ws') }) : undefined;
  try {
    const chain = createSolanaDeposits({ rpcUrl: sim.url, commitment: 'finalized', tokenMints: { USDC: sim.usdc } });
    // Subscribed: the passes' clock moves by the interval each, so full reads come at the service's pace without waiting for it.
    let simulatedMs = Date.now();
    const clock = accounts ? { now: () => new Date(simulatedMs) } : systemClock;
    const watcher = createDepositWatcher({
      db: handle.db,
      clock,
      chain,
      handleChainDeposit: () => Promise.reject(new Error('no deposit expected on seeded addresses')),
      settings: { batchSize: options.batch, lateWatchMs: 72 * 3_600_000, fullReadIntervalMs: options.subscribed?.fullReadIntervalMs ?? 0 },
      accounts,
    });
    // Warm-up (connections, JIT, the mint read once; every account subscribed): not measured.
    const subscribeStarted = performance.now();
    for (let i = 0; i < 3; i++) await watcher.runPass();
    if (accounts) {
      while (accounts.answered() < options.openAddresses) await new Promise((resolve) => setTimeout(resolve, 50));
      // Once each covered at two passes: from here only the full reads read balances.
      for (let i = 0; i < 2; i++) await watcher.runPass();
    }
    const subscribeMs = performance.now() - subscribeStarted;
    const pickStarted = performance.now();
    for (let i = 0; i < 5; i++) await depositsRepo.allWatched(handle.db, new Date(), 72 * 3_600_000);
    const pickQueryMs = (performance.now() - pickStarted) / 5;
    const times: number[] = [];
    const calls0 = calls;
    const started = performance.now();
    for (let i = 0; i < options.passes; i++) {
      simulatedMs += options.intervalMs;
      const t0 = performance.now();
      const result = await watcher.runPass();
      if (result.backedOff) throw new Error('the watcher backed off: the simulator failed');
      times.push(performance.now() - t0);
    }
    const elapsedMs = performance.now() - started;
    const callsPerPass = (calls - calls0) / options.passes;
    const sorted = [...times].sort((a, b) => a - b);
    const passMean = elapsedMs / options.passes;
    return {
      openAddresses: options.openAddresses,
      batch: options.batch,
      passes: options.passes,
      passP50Ms: round(percentile(sorted, 50)),
      passP99Ms: round(percentile(sorted, 99)),
      callsPerPass: round(callsPerPass),
      callsPerSecond: round(((calls - calls0) / elapsedMs) * 1000),
      callsPerMinuteAtInterval: round((callsPerPass * 60_000) / (passMean + options.intervalMs)),
      pickQueryMs: round(pickQueryMs, 2),
      // Subscribed, the rotation goes with the full reads only.
      rotationSecondsAtInterval: round((Math.ceil(options.openAddresses / options.batch) * (options.subscribed?.fullReadIntervalMs ?? passMean + options.intervalMs)) / 1000),
      intervalMs: options.intervalMs,
      ...(options.subscribed ? { subscribed: { fullReadIntervalMs: options.subscribed.fullReadIntervalMs, subscribeMs: round(subscribeMs) } } : {}),
    };
  } finally {
    accounts?.close();
    globalThis.fetch = realFetch;
    await handle.close();
  }
}
