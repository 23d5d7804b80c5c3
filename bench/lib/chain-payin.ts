/**
 * Issue 26's scenarios: a PAYIN from paid to COMPLETED through the chain simulator (the service
 * with CHAIN_PROVIDER=solana-rpc, its treasury funded there), at `confirmed` and at `finalized`;
 * and, in the same run, the simulator's own limit: pre-signed transfers sent straight to it, no
 * service in between. The simulator runs as its own process (`npm run chain-simulator`), so its
 * CPU is separate from the service's and both are reported: which side limits is read there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { generateKeyPairSigner, type Address, address } from '@solana/kit';
import { buildTransfer, simulatorRpc } from '../../test/helpers/chain-simulator.ts';
import { WELL_KNOWN_USDC } from '../../tools/chain-simulator/mints.ts';
import type { Api } from './api.ts';
import { createReceivers, makeReturning } from './chain-receivers.ts';
import { withClient } from './database.ts';
import { pool, round } from './load.ts';
import { type Child, freePort, startNode, waitHealthy } from './process.ts';

export interface ClockSettings {
  slotMs: number;
  confirmedLag: number;
  finalizedLag: number;
}

export interface ChainPayinFigures {
  commitment: 'confirmed' | 'finalized';
  clock: ClockSettings;
  orders: number;
  completed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How fast the sandbox PSP's payments went in (20 in flight): the offered rate. */
  paidPerSecond: number;
  /**
   * Completed orders over the window from the first payment to the last COMPLETED; for a backlog
   * (`startWorker`), from the restarted worker instance's registration (its row in `workers`, the
   * database's clock as the events'): stopping the service without a worker and the new process's
   * start-up are not settlement, and were 3 to 4 s of a 13 s window at 3,000 orders.
   */
  completedPerSecond: number;
  wallSeconds: number;
  /** For a backlog: the same rate over the window from the moment the bench began the restart (the figure of the reports before 2026-12-06-simulator-and-window.md). */
  completedPerSecondWithRestart?: number;
  /** CPU seconds each process spent in that window, and the share of one core. */
  serviceCpuSeconds: number;
  simulatorCpuSeconds: number;
  /** The same for every `postgres` process of this machine (backends, WAL writer, autovacuum): NaN when PostgreSQL is not local. */
  postgresCpuSeconds: number;
  /** JSON-RPC calls the simulator answered from the orders' creation to the end, by method (the service's, and the bench's few reads). */
  rpcCalls: Record<string, number>;
  /** sendTransaction calls the simulator counted for these orders (the worker re-sends a pending transfer on each pass), and duplicates among them. */
  sends: number;
  duplicateSends: number;
  /** Distinct transfers (signature, instruction index) among the completed orders: one per order, or orders share a transfer. */
  distinctTransfers: number;
  /**
   * Paid → the node at the commitment (its transaction's slot ≤ the confirmed or finalized slot,
   * sampled every 20 ms), and from there → COMPLETED: what the service adds to the chain's own
   * delay (issue 44 item 2: finality + 300 ms). The simulator's slots drift on a loaded machine,
   * so `32 × slot` is not the finality an order saw; this is.
   */
  commitmentP50Ms: number;
  afterCommitmentP50Ms: number;
  afterCommitmentP99Ms: number;
  afterCommitmentMaxMs: number;
  /** Distinct transactions among them: fewer than the orders when transfers are batched (decision 0053). */
  transactions: number;
  /**
   * The chain's own part of each order's time: from the slot its transaction landed in being
   * produced to the node reaching the commitment over it (the configured lag, as the simulator's
   * clock really ran). Paid → COMPLETED minus that is what the service added (p50, p99): before
   * the send, the wait for the next slot, and after the commitment.
   */
  chainP50Ms: number;
  serviceAddedP50Ms: number;
  serviceAddedP99Ms: number;
  /** The receivers' count, and whether they were returning ones (BENCH_CHAIN_BACKLOG_RECEIVERS, chain-receivers.ts) or new. */
  receivers: { count: number; returning: boolean };
  /** Set when the payments went one at a time, this far apart (low load), instead of 20 in flight. */
  payEveryMs: number | null;
  timedOut: boolean;
}

/** When each confirmed and finalized slot was first seen (wall ms), sampled from /admin/state until stopped. */
export function sampleCommitments(sim: SimulatorProcess) {
  const seen = { processed: new Map<number, number>(), confirmed: new Map<number, number>(), finalized: new Map<number, number>() };
  let running = true;
  const done = (async () => {
    while (running) {
      const at = Date.now();
      const state = await admin<{ slot: number; confirmedSlot: number; finalizedSlot: number }>(sim, '/state');
      if (!seen.processed.has(state.slot)) seen.processed.set(state.slot, at);
      if (!seen.confirmed.has(state.confirmedSlot)) seen.confirmed.set(state.confirmedSlot, at);
      if (!seen.finalized.has(state.finalizedSlot)) seen.finalized.set(state.finalizedSlot, at);
      await sleep(20);
    }
  })();
  /** The first time the commitment's slot reached `slot`. */
  const reached = (commitment: 'processed' | 'confirmed' | 'finalized', slot: number) => {
    let first = Infinity;
    for (const [seenSlot, at] of seen[commitment]) if (seenSlot >= slot && at < first) first = at;
    return first;
  };
  return { reached, stop: async () => ((running = false), await done) };
}

/**
 * Settlement alone: the service runs without its worker (`stopWorker`, once the receivers are
 * ready) while the orders are created and paid, then `startWorker` restarts it with the worker
 * and answers its pid; the rate is counted from that start. `returningReceivers`: receivers paid
 * before, their token accounts in the treasury's lookup tables (chain-receivers.ts).
 */
export interface BacklogRun {
  stopWorker: () => Promise<void>;
  startWorker: () => Promise<number>;
  returningReceivers: boolean;
}

export interface SimulatorLimitFigures {
  clock: ClockSettings;
  transfers: number;
  concurrency: number;
  /** Accepted by sendTransaction per second, and landed per second (first send → last landed). */
  sentPerSecond: number;
  landedPerSecond: number;
  landed: number;
  simulatorCpuSeconds: number;
  wallSeconds: number;
}

export interface SimulatorProcess {
  child: Child;
  url: string;
  adminUrl: string;
  usdc: string;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TICKS_PER_SECOND = 100;

/**
 * utime + stime of every `postgres` process now, by pid: at the window's end, each one's CPU since
 * the start (a backend started in between counts whole; one that ended in between is lost).
 */
function postgresCpu(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') byPid.set(Number(entry), cpuSeconds(Number(entry)));
    } catch {
      // Gone since the listing.
    }
  }
  return byPid;
}

function postgresCpuSince(start: Map<number, number>): number {
  const now = postgresCpu();
  if (now.size === 0) return NaN;
  return [...now].reduce((sum, [pid, seconds]) => sum + (Number.isNaN(seconds) ? 0 : seconds - (start.get(pid) ?? 0)), 0);
}

/** utime + stime of a pid in seconds (USER_HZ is 100 on Linux). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** `npm run chain-simulator` as a process (node directly, so the pid is the simulator's), with the USDC-like mint at mainnet USDC's address. */
export async function startSimulator(root: string, logFile: string, clock: ClockSettings): Promise<SimulatorProcess> {
  const port = await freePort();
  const child = startNode('tools/chain-simulator/main.ts', {
    cwd: root,
    env: { PATH: process.env.PATH, NODE_ENV: 'production' },
    logFile,
    args: ['--port', String(port), '--slot-ms', String(clock.slotMs), '--confirmed-lag', String(clock.confirmedLag), '--finalized-lag', String(clock.finalizedLag), '--usdc'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/health`, performance.now(), child);
  // --usdc makes the mint after listening: wait until it is there.
  for (let i = 0; i < 100; i++) {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [WELL_KNOWN_USDC, { encoding: 'base64' }] }) });
    if (((await response.json()) as { result?: { value: unknown } }).result?.value) break;
    await sleep(20);
  }
  return { child, url, adminUrl: `${url}/admin`, usdc: WELL_KNOWN_USDC };
}

async function admin<T>(sim: SimulatorProcess, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sim.adminUrl}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`simulator ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

interface SimState {
  slot: number;
  calls: Record<string, number>;
  transactions: { sent: number; landed: number; failedLanded: number; dropped: number; expired: number; rejected: number; duplicates: number };
}
export const simulatorState = (sim: SimulatorProcess) => admin<SimState>(sim, '/state');

/**
 * The treasury wallets' addresses, wallet 1 first (CHAIN_TREASURY_WALLETS, decision 0057): their
 * keys are created and sealed by the service's first start (SIMULATION_MODE).
 */
export const treasuryAddresses = (dbUrl: string) =>
  withClient(dbUrl, async (client) => {
    const { rows } = await client.query<{ address: string }>(`select address from platform_keys where purpose = 'TREASURY' or purpose like 'TREASURY\\_%' order by length(purpose), purpose`);
    return rows.map((row) => row.address);
  });

/**
 * The treasury funded on the simulator before the service starts on it: the service's liquidity
 * check would otherwise hold the zero balance its first reconciliation read (for
 * TREASURY_BALANCE_MAX_AGE_MS). Returns the airdrop's signature, the books' funding reference.
 */
export async function fundTreasuryOnChain(sim: SimulatorProcess, treasury: string): Promise<string> {
  const { signature } = await admin<{ signature: string }>(sim, '/airdrop', { address: treasury, lamports: 1_000_000_000_000 });
  await admin(sim, '/mint-to', { mint: sim.usdc, owner: treasury, amount: '100000000000000' });
  return signature;
}

/** The same fundings of treasury wallet `wallet` told to the books (POST /admin/treasury/fundings), as an operator would. */
export async function fundTreasuryBooks(service: Api, adminToken: string, airdrop: string, wallet: number): Promise<void> {
  const auth = { authorization: `Bearer ${adminToken}` };
  await service.post('/api/v1/admin/treasury/fundings', { currency: 'SOL', amount: '1000', reference: airdrop, wallet }, auth);
  await service.post('/api/v1/admin/treasury/fundings', { currency: 'USDC', amount: '100000000', reference: `bench-mint-${airdrop}`, wallet }, auth);
}

/**
 * N PAYINs over `receivers` receivers (fresh wallets: the first order of each creates its token
 * account), created first, then paid all at once through the sandbox PSP driver (20 in flight);
 * per order, the time from the order.payment_received event to order.completed (both stamped in
 * the database by the transactions that made them).
 */
export async function chainPayin(
  api: Api,
  dbUrl: string,
  sim: SimulatorProcess,
  options: {
    commitment: 'confirmed' | 'finalized';
    clock: ClockSettings;
    orders: number;
    receivers: number;
    documentOffset: number;
    servicePid: number;
    waitSeconds: number;
    /** Low load: one payment at a time, each this long after the one before started. */
    payEveryMs?: number;
    backlog?: BacklogRun;
    log: (m: string) => void;
    name?: string;
  },
): Promise<ChainPayinFigures> {
  const name = options.name ?? `chain-payin-${options.commitment}`;
  const receivers = await createReceivers(api, options.receivers, options.documentOffset);
  if (options.backlog?.returningReceivers) {
    options.log(`${name}: four PAYINs per receiver first, then their token accounts in the treasury's lookup tables (returning receivers)`);
    await makeReturning(api, dbUrl, sim.usdc, receivers, { stop: options.backlog.stopWorker, start: options.backlog.startWorker });
  }
  if (options.backlog) await options.backlog.stopWorker();
  options.log(`${name}: creating ${options.orders} PAYINs over ${options.receivers} receivers`);
  const ids = await pool(options.orders, 20, 300_000, async (i) => (await api.post<{ id: string }>('/api/v1/payin', { receiverId: receivers[i % receivers.length]!.id, amountBrl: 100 })).id);
  const before = await simulatorState(sim);
  const cpu0 = { service: cpuSeconds(options.servicePid), sim: cpuSeconds(sim.child.pid), postgres: postgresCpu() };
  const sampler = sampleCommitments(sim);
  const started = Date.now();
  const pay = (i: number) => api.post(`/api/v1/sandbox/orders/${ids[i]}/pix-payment`, {});
  if (options.payEveryMs) {
    options.log(`${name}: paying them one at a time, ${options.payEveryMs} ms apart`);
    for (let i = 0; i < ids.length; i++) {
      await sleep(started + i * options.payEveryMs - Date.now());
      await pay(i);
    }
  } else {
    options.log(`${name}: paying them (20 in flight)`);
    await pool(ids.length, 20, 300_000, pay);
  }
  const paidMs = Date.now() - started;
  let windowStart: number | undefined;
  let restartedAt: number | undefined;
  let servicePid = options.servicePid;
  if (options.backlog) {
    await waitForStatus(dbUrl, ids, 'PAYMENT_RECEIVED');
    options.log(`${name}: ${ids.length} orders paid and waiting; starting the worker`);
    restartedAt = Date.now();
    servicePid = await options.backlog.startWorker();
    windowStart = await workerRegisteredAt(dbUrl);
    // From the restarted service's health: its start-up is not settlement.
    cpu0.service = cpuSeconds(servicePid);
    cpu0.postgres = postgresCpu();
  }
  const query = `
    select extract(epoch from (c.created_at - p.created_at)) * 1000 as ms, extract(epoch from p.created_at) * 1000 as paid, extract(epoch from c.created_at) * 1000 as done, o.tx_hash
    from events p join events c on c.payload->>'orderId' = p.payload->>'orderId' and c.event_type = 'order.completed'
    join orders o on o.id = (p.payload->>'orderId')::uuid
    where p.event_type = 'order.payment_received' and p.payload->>'orderId' = any($1::text[])`;
  // The wait counts completed orders on one connection every 500 ms (the count looks up every
  // order: every 250 ms it was a twentieth of the PostgreSQL CPU measured); the latencies' join
  // over the events runs once at the end (every 250 ms it was a tenth). The window ends at the last
  // COMPLETED's own timestamp; the CPU is read as the wait ends.
  const deadline = Date.now() + options.waitSeconds * 1000;
  const { rows, cpu1 } = await withClient(dbUrl, async (client) => {
    while (Date.now() < deadline) {
      const { count } = (await client.query<{ count: number }>(`select count(*)::int as count from orders where id = any($1::uuid[]) and status = 'COMPLETED'`, [ids])).rows[0]!;
      if (count >= ids.length) break;
      await sleep(500);
    }
    const cpu1 = { service: cpuSeconds(servicePid), sim: cpuSeconds(sim.child.pid), postgres: postgresCpuSince(cpu0.postgres) };
    const result = await client.query<{ ms: string; paid: string; done: string; tx_hash: string }>(query, [ids]);
    return { rows: result.rows.map((r) => ({ ms: Number(r.ms), paid: Number(r.paid), done: Number(r.done), txHash: r.tx_hash })), cpu1 };
  });
  await sampler.stop();
  // Each transaction's slot, then when the node reached the commitment over it.
  const rpc = simulatorRpc(sim.url);
  // The node answers at most 256 signatures per call.
  const slots: Array<{ slot: bigint } | null> = [];
  for (let i = 0; i < rows.length; i += 256) {
    slots.push(...(await rpc.getSignatureStatuses(rows.slice(i, i + 256).map((r) => r.txHash) as never[], { searchTransactionHistory: true }).send()).value);
  }
  const committed = rows.map((r, i) => sampler.reached(options.commitment, Number(slots[i]?.slot ?? Infinity)));
  const commitment = rows.map((r, i) => committed[i]! - r.paid).sort((a, b) => a - b);
  const afterCommitment = rows.map((r, i) => r.done - committed[i]!).sort((a, b) => a - b);
  const chainOwn = rows.map((_, i) => committed[i]! - sampler.reached('processed', Number(slots[i]?.slot ?? Infinity)));
  const serviceAdded = rows.map((r, i) => r.ms - chainOwn[i]!).sort((a, b) => a - b);
  const after = await simulatorState(sim);
  // A transfer is a (signature, instruction index): batched orders share a transaction (decision 0053), never an instruction.
  const { distinctTransfers, transactions } = await withClient(dbUrl, async (client) => {
    const row = (
      await client.query<{ transfers: string; transactions: string }>(
        `select count(distinct (o.tx_hash, coalesce(t.instruction_index, -1))) as transfers, count(distinct o.tx_hash) as transactions
         from orders o join order_transactions t on t.order_id = o.id and t.type = 'CHAIN_TRANSFER'
         where o.id = any($1::uuid[]) and o.status = 'COMPLETED'`,
        [ids],
      )
    ).rows[0]!;
    return { distinctTransfers: Number(row.transfers), transactions: Number(row.transactions) };
  });
  const sorted = rows.map((r) => r.ms).sort((a, b) => a - b);
  const firstPaid = windowStart ?? (rows.length ? Math.min(...rows.map((r) => r.paid)) : started);
  const lastDone = rows.length ? Math.max(...rows.map((r) => r.done)) : Date.now();
  const windowMs = Math.max(1, lastDone - firstPaid);
  const withRestartMs = restartedAt === undefined ? undefined : Math.max(1, lastDone - restartedAt);
  return {
    commitment: options.commitment,
    clock: options.clock,
    orders: ids.length,
    completed: rows.length,
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? NaN),
    paidPerSecond: round((ids.length / Math.max(1, paidMs)) * 1000),
    completedPerSecond: round((rows.length / windowMs) * 1000),
    wallSeconds: round(windowMs / 1000),
    ...(withRestartMs === undefined ? {} : { completedPerSecondWithRestart: round((rows.length / withRestartMs) * 1000) }),
    serviceCpuSeconds: round(cpu1.service - cpu0.service),
    simulatorCpuSeconds: round(cpu1.sim - cpu0.sim),
    postgresCpuSeconds: round(cpu1.postgres),
    rpcCalls: Object.fromEntries(Object.entries(after.calls).map(([method, n]) => [method, n - (before.calls[method] ?? 0)]).filter(([, n]) => Number(n) > 0)),
    sends: after.transactions.sent - before.transactions.sent,
    duplicateSends: after.transactions.duplicates - before.transactions.duplicates,
    distinctTransfers,
    commitmentP50Ms: round(percentile(commitment, 50)),
    afterCommitmentP50Ms: round(percentile(afterCommitment, 50)),
    afterCommitmentP99Ms: round(percentile(afterCommitment, 99)),
    afterCommitmentMaxMs: round(afterCommitment.at(-1) ?? NaN),
    transactions,
    chainP50Ms: round(percentile([...chainOwn].sort((a, b) => a - b), 50)),
    serviceAddedP50Ms: round(percentile(serviceAdded, 50)),
    serviceAddedP99Ms: round(percentile(serviceAdded, 99)),
    receivers: { count: receivers.length, returning: options.backlog?.returningReceivers ?? false },
    payEveryMs: options.payEveryMs ?? null,
    timedOut: rows.length < ids.length,
  };
}

/** Waits until every order has reached `status` (the payments' notifications are applied by the API as they arrive). */
async function waitForStatus(dbUrl: string, ids: string[], status: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    const waiting = await withClient(dbUrl, async (client) => Number((await client.query<{ n: string }>('select count(*) as n from orders where id = any($1::uuid[]) and status <> $2', [ids, status])).rows[0]!.n));
    if (waiting === 0) return;
  }
  throw new Error(`orders not all ${status} after 60 s`);
}

/** When the running worker instance registered (epoch ms): the one the bench just started. */
async function workerRegisteredAt(dbUrl: string): Promise<number> {
  const row = await withClient(dbUrl, async (client) => (await client.query<{ ms: string }>('select extract(epoch from max(started_at)) * 1000 as ms from workers')).rows[0]);
  if (!row?.ms) throw new Error('no worker instance registered after the worker started');
  return Number(row.ms);
}

/**
 * The simulator's own limit: `transfers` transferChecked transactions (compute budget, the
 * destination's token account created idempotently: the service's shape) signed beforehand by a
 * funded payer to 20 wallets, then sent with `concurrency` sendTransaction calls in flight (one
 * transaction a call, skipPreflight, as the service sends); landed per second from the first send
 * to the last landed (the simulator's own count).
 */
export async function simulatorLimit(sim: SimulatorProcess, options: { clock: ClockSettings; transfers: number; concurrency: number; log: (m: string) => void }): Promise<SimulatorLimitFigures> {
  const rpc = simulatorRpc(sim.url);
  const payer = await generateKeyPairSigner();
  await admin(sim, '/airdrop', { address: payer.address, lamports: 1_000_000_000_000 });
  await admin(sim, '/mint-to', { mint: sim.usdc, owner: payer.address, amount: '100000000000000' });
  const wallets: Address[] = [];
  for (let i = 0; i < 20; i++) wallets.push((await generateKeyPairSigner()).address);
  const blockhash = (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
  options.log(`simulator-limit: signing ${options.transfers} transfers`);
  const wires: string[] = [];
  for (let i = 0; i < options.transfers; i++) {
    // A distinct amount per transfer: the same message twice would be the same signature.
    wires.push((await buildTransfer(rpc, { payer, mint: address(sim.usdc), to: wallets[i % wallets.length]!, amount: BigInt(1_000 + i), blockhash })).wire);
  }
  const before = await simulatorState(sim);
  const cpu0 = cpuSeconds(sim.child.pid);
  options.log(`simulator-limit: sending them, ${options.concurrency} in flight`);
  const started = performance.now();
  await pool(wires.length, options.concurrency, 120_000, async (i) => {
    const response = await fetch(sim.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'sendTransaction', params: [wires[i], { encoding: 'base64', skipPreflight: true, maxRetries: 0 }] }),
    });
    const body = (await response.json()) as { error?: unknown };
    if (body.error) throw new Error(`sendTransaction: ${JSON.stringify(body.error)}`);
  });
  const sentMs = performance.now() - started;
  let state = await simulatorState(sim);
  const deadline = performance.now() + 60_000;
  while (state.transactions.landed + state.transactions.failedLanded - before.transactions.landed - before.transactions.failedLanded < wires.length && performance.now() < deadline) {
    await sleep(10);
    state = await simulatorState(sim);
  }
  const landedMs = performance.now() - started;
  const landed = state.transactions.landed - before.transactions.landed;
  return {
    clock: options.clock,
    transfers: wires.length,
    concurrency: options.concurrency,
    sentPerSecond: round((wires.length / sentMs) * 1000),
    landedPerSecond: round((landed / landedMs) * 1000),
    landed,
    simulatorCpuSeconds: round(cpuSeconds(sim.child.pid) - cpu0),
    wallSeconds: round(landedMs / 1000),
  };
}

