/**
 * The fault suite of issue 14 (`npm run test:faults`, run by .ci/run on PostgreSQL).
 *
 * Four processes on one PostgreSQL: two api (ROLES=api; the clients spread requests over both)
 * and two workers (ROLES=worker). Two merchants: A's webhook endpoint is a receiver that goes
 * down (connection refused) for longer than the retry schedule (WEBHOOK_RETRY_SCHEDULE=0,1), so
 * deliveries end FAILED, then comes back and the suite calls POST /webhook/endpoints/{id}/recover;
 * B's endpoint hangs (accepts, never answers) throughout and must not hold A's deliveries.
 * FAULTS_ORDERS concurrent clients (PAYINs and PAYOUTs, one in ten for B, one PAYIN in twenty paid
 * the wrong amount so it is refunded) create their order with an Idempotency-Key and pay it
 * through the sandbox, retrying every failure. Meanwhile, at random points of the progress
 * (FAULTS_SEED): kill -9 of each api process and of the workers, restarted; SIGTERM of an api
 * process and of a worker under load, restarted. Then the drain (bounded by FAULTS_DRAIN_MS) and
 * the assertions (assertions.ts); it prints its figures and exits non-zero on any failure.
 *
 * Rate limits are off (RATE_LIMIT_PER_MINUTE=0): they are per process (README, "Rate limits").
 * Environment: FAULTS_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/exchange_faults;
 * dropped and created), FAULTS_ORDERS (default 500, the minimum), FAULTS_SEED,
 * FAULTS_DRAIN_MS (default 90000).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../test/helpers/processes.ts';
import { check, drain } from './assertions.ts';
import { Api, type Merchant, planOrders, runOrder } from './clients.ts';
import { printFigures } from './figures.ts';
import { Slot } from './processes.ts';
import { FlakyReceiver, HangingReceiver } from './receivers.ts';

const DATABASE_URL = process.env.FAULTS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/exchange_faults';
const ORDERS = Number(process.env.FAULTS_ORDERS ?? 500);
const SEED = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DRAIN_MS = Number(process.env.FAULTS_DRAIN_MS ?? 90_000);
const CLIENT_DEADLINE_MS = 150_000;
/** Beyond the retry schedule (0 s, then 1 s, +20 % jitter) and an attempt's timeout. */
const RECOVER_AFTER_UP_MS = 3000;
/** After the drain, with B's endpoint holding hanging attempts, a test ping to A must arrive within this. */
const CANARY_MAX_MS = 10_000;
const ADMIN_TOKEN = `faults-admin-${randomUUID()}`;

/** mulberry32: the fault points are reproducible from FAULTS_SEED. */
function random(seed: number) {
  let a = seed >>> 0;
  return (from: number, to: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return from + (((t ^ (t >>> 14)) >>> 0) / 4294967296) * (to - from);
  };
}

async function recreateDatabase() {
  const name = new URL(DATABASE_URL).pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(DATABASE_URL), { pathname: '/postgres' }).toString() });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
}

async function createMerchant(api: Api, name: string, document: string, webhookUrl: string): Promise<Merchant & { secret: string }> {
  const created = await api.expect(201, 'POST', '/admin/merchants', { authorization: `Bearer ${ADMIN_TOKEN}` }, { name: `Fault Suite ${name}` });
  const credential = created.credential as { apiKey: string; apiSecret: string };
  const auth = { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret };
  const receiver = await api.expect(201, 'POST', '/receivers', auth, {
    type: 'PJ',
    document,
    name: `Loja Falhas ${name}`,
    email: `falhas-${name.toLowerCase()}@example.com`,
    walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
    limits: { nightTransactionsEnabled: true },
  });
  await api.expect(200, 'POST', `/sandbox/receivers/${String(receiver.id)}/kyc`, auth, { decision: 'APPROVE' });
  for (const type of ['PAYIN', 'PAYOUT']) await api.expect(200, 'PUT', `/fee-tiers/${type}`, auth, [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.01 }]);
  const endpoint = await api.expect(201, 'POST', '/webhook/endpoints', auth, { url: webhookUrl });
  return { name, id: (created.merchant as { id: string }).id, auth, receiverId: receiver.id as string, endpointId: endpoint.id as string, secret: endpoint.secret as string };
}

/**
 * B's hanging endpoint must not hold A's deliveries: with B's endpoint given fresh test pings
 * (each hangs until the attempt's timeout), five test pings to A must arrive promptly.
 */
async function canaries(api: Api, a: Merchant, b: Merchant, receiverA: FlakyReceiver) {
  const ping = (m: Merchant) => api.expect(202, 'POST', `/webhook/endpoints/${m.endpointId}/test`, { ...m.auth, 'idempotency-key': randomUUID() });
  await Promise.all(Array.from({ length: 20 }, () => ping(b)));
  const hangingB = Number((await api.expect(200, 'GET', `/webhook/deliveries?endpointId=${b.endpointId}&status=PENDING&limit=1`, b.auth)).total);
  const started = Date.now();
  const ids = await Promise.all(Array.from({ length: 5 }, async () => String((await ping(a)).id)));
  while (Date.now() - started < 2 * CANARY_MAX_MS && !ids.every((id) => receiverA.received.some((r) => r.webhookId === id))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { hangingB, ms: Date.now() - started };
}

async function main() {
  const started = Date.now();
  const rand = random(SEED);
  await recreateDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-faults-'));
  const env = {
    DATABASE_URL,
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    RATE_LIMIT_PER_MINUTE: '0',
    TOKEN_RATE_LIMIT_PER_MINUTE: '0',
    SANDBOX_ENABLED: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0,1',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_CLAIM_LEASE_MS: '6000',
  };
  const timeline: string[] = [];
  const note = (what: string) => timeline.push(`${((Date.now() - started) / 1000).toFixed(1)}s ${what}`);
  const apis = await Promise.all([1, 2].map(async (n) => new Slot(`api-${n}`, 'api', { ...env, PORT: String(await freePort()) }, note)));
  const workers = [1, 2].map((n) => new Slot(`worker-${n}`, 'worker', env, note));
  const receiverA = new FlakyReceiver();
  const hanging = new HangingReceiver();
  await Promise.all([receiverA.up(), hanging.start()]);
  // The first process migrates and writes DATA_DIR/dev-secrets.json; the others then share them.
  await apis[0]!.start();
  await Promise.all([apis[1]!.start(), ...workers.map((w) => w.start())]);
  const api = new Api(apis);
  const a = await createMerchant(api, 'A', '11222333000181', receiverA.url);
  const b = await createMerchant(api, 'B', '11444777000161', hanging.url);
  receiverA.secret = a.secret;
  const setupSeconds = (Date.now() - started) / 1000;

  // --- Faults at random points of the progress (one unit per answered creation or payment) ---
  const total = 2 * ORDERS;
  let progress = 0;
  const busy = new Map<Slot, Promise<unknown>>();
  const onSlot = (slot: Slot, what: string, action: () => Promise<unknown>) => {
    const next = (busy.get(slot) ?? Promise.resolve()).then(() => (note(`${what} ${slot.name}`), action()));
    busy.set(slot, next);
    return next;
  };
  let downAt = 0;
  let upAt = 0;
  let recovered: { requeued?: unknown } = {};
  const faults: Array<{ at: number; run: () => Promise<unknown> }> = [
    { at: rand(0.1, 0.3), run: () => onSlot(apis[0]!, 'kill -9', () => apis[0]!.kill9AndRestart()) },
    { at: rand(0.35, 0.5), run: () => onSlot(apis[1]!, 'SIGTERM', () => apis[1]!.termAndRestart()) },
    { at: rand(0.6, 0.8), run: () => onSlot(apis[1]!, 'kill -9', () => apis[1]!.kill9AndRestart()) },
    { at: rand(0.4, 0.7), run: () => onSlot(workers[1]!, 'SIGTERM', () => workers[1]!.termAndRestart()) },
    ...[0, 1, 2, 3].map((k) => ({ at: rand(0.1, 0.9), run: () => onSlot(workers[k % 2]!, 'kill -9', () => workers[k % 2]!.kill9AndRestart(rand(0, 1500))) })),
    {
      at: 0.15,
      run: async () => {
        note('receiver A down');
        downAt = Date.now();
        await receiverA.down();
      },
    },
    {
      at: 0.55,
      run: async () => {
        await receiverA.up();
        upAt = Date.now();
        note('receiver A up');
        await new Promise((resolve) => setTimeout(resolve, RECOVER_AFTER_UP_MS));
        recovered = await api.expect(202, 'POST', `/webhook/endpoints/${a.endpointId}/recover`, a.auth, { since: new Date(downAt - 1000).toISOString() });
        note(`recover: ${String(recovered.requeued)} re-queued`);
      },
    },
  ].sort((x, y) => x.at - y.at);
  const running: Array<Promise<unknown>> = [];
  const advance = () => {
    progress++;
    while (faults.length > 0 && progress >= faults[0]!.at * total) running.push(faults.shift()!.run());
  };

  const loadStarted = Date.now();
  const deadline = loadStarted + CLIENT_DEADLINE_MS;
  const outcomes = await Promise.all(planOrders(ORDERS, a, b).map((plan) => runOrder(api, plan, deadline, advance)));
  for (const fault of faults.splice(0)) running.push(fault.run());
  await Promise.all(running);
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  note('load done');

  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  const drained = await drain(db, a.endpointId, DRAIN_MS);
  note('drained');
  const feeBalance = async (m: Merchant) => String((await api.expect(200, 'GET', '/ledger/fees/balance', m.auth)).balance);
  const merchants = [
    { name: 'A', id: a.id, endpointId: a.endpointId, feeBalance: await feeBalance(a) },
    { name: 'B', id: b.id, endpointId: b.endpointId, feeBalance: await feeBalance(b) },
  ];
  const { figures, failures } = await check({ db, outcomes, merchants, endpointA: a.endpointId, receivedByA: receiverA.received });

  // Not held by the hanging endpoint: A's deliveries that succeeded at their first attempt (so
  // neither the outage nor a killed worker's lease delayed them) arrived soon after their event.
  const firstTry = new Map(
    (
      await db.query<{ id: string; at: Date }>(
        `select d.id, e.created_at as at from webhook_deliveries d join events e on e.id = d.event_id
          where d.endpoint_id = $1 and d.status = 'SUCCEEDED' and d.attempts = 1`,
        [a.endpointId],
      )
    ).rows.map((r) => [r.id, r.at.getTime()]),
  );
  const lags = receiverA.received
    .filter((r) => firstTry.has(r.webhookId))
    .map((r) => r.at - firstTry.get(r.webhookId)!)
    .sort((x, y) => x - y);
  const lagAt = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0;
  const bStatuses = (await db.query<{ status: string; n: number }>('select status, count(*)::int as n from webhook_deliveries where endpoint_id = $1 group by status', [b.endpointId])).rows;
  const bAttempts = (await db.query<{ n: number }>('select count(*)::int as n from webhook_delivery_attempts t join webhook_deliveries d on d.id = t.delivery_id where d.endpoint_id = $1', [b.endpointId])).rows[0]!.n;
  await db.end();
  const canary = await canaries(api, a, b, receiverA);
  if (canary.ms > CANARY_MAX_MS) failures.push(`test pings to A took ${canary.ms} ms while B's endpoint hung: held behind it?`);
  if (receiverA.invalid.length > 0) failures.push(`A received ${receiverA.invalid.length} deliveries that failed verification: ${receiverA.invalid.slice(0, 3).join('; ')}`);
  const http = api.figures;
  if (http.violations.length > 0) failures.push(`${http.violations.length} 5xx or connection failures of a process that was up (only a process starting or draining may answer 503 or drop connections)`, ...http.violations.slice(0, 5).map((v) => `  ${v}`));
  const crashes = [...apis, ...workers].flatMap((s) => s.crashes);
  if (crashes.length > 0) failures.push(`${crashes.length} processes exited on their own`, ...crashes.map((c) => `  ${c}`));
  const forced = [...apis, ...workers].flatMap((s) => s.termExits.filter((code) => code !== 0).map((code) => `${s.name} ${code}`));
  if (forced.length > 0) failures.push(`SIGTERM did not end in a clean exit (the 10 s grace ran out?): ${forced.join(', ')}`);
  if (drained.ms > DRAIN_MS) failures.push(`drain not done within ${DRAIN_MS} ms: ${JSON.stringify(drained)}`);

  await Promise.all([...apis, ...workers].map((s) => s.stop()));
  await Promise.all([receiverA.down(), hanging.stop()]);
  await rm(dataDir, { recursive: true, force: true });

  printFigures(`${ORDERS} orders on 2 api + 2 worker processes, seed ${SEED}`, [
    [
      'run',
      {
        seconds: ((Date.now() - started) / 1000).toFixed(1),
        'setup seconds': setupSeconds.toFixed(1),
        'load seconds': loadSeconds.toFixed(1),
        'drain seconds': (drained.ms / 1000).toFixed(1),
        'kill -9 (api, worker)': `${apis.reduce((n, s) => n + s.kills, 0)}, ${workers.reduce((n, s) => n + s.kills, 0)}`,
        'SIGTERM (api, worker)': `${apis.reduce((n, s) => n + s.terms, 0)}, ${workers.reduce((n, s) => n + s.terms, 0)}`,
        'exit codes after SIGTERM (1: grace ran out)': [...apis, ...workers].flatMap((s) => s.termExits.map((code) => `${s.name} ${code}`)).join(', '),
        'receiver A down (s)': ((upAt - downAt) / 1000).toFixed(1),
        'recover re-queued': String(recovered.requeued),
      },
    ],
    [
      'http',
      {
        requests: http.requests,
        '503 while starting or draining (allowed)': http.allowed503,
        '503 while up, by code (violations: overload)': JSON.stringify(http.busy503),
        'connection failures while down or draining (allowed)': http.allowedConnectionFailures,
        'other 5xx or failures while up': http.violations.length,
        'retries by cause': JSON.stringify(http.retries),
      },
    ],
    ['assertions', figures],
    [
      'webhooks beyond the assertions',
      {
        'A first-attempt lag p50/p95/max (ms)': `${lagAt(0.5)}/${lagAt(0.95)}/${lags.at(-1) ?? 0}`,
        'B (hanging) deliveries by status': JSON.stringify(Object.fromEntries(bStatuses.map((r) => [r.status, r.n]))),
        'B attempts (each timed out)': bAttempts,
        'B requests that reached the receiver': hanging.requests,
        'canary: B deliveries hanging, slowest of 5 pings to A (ms)': `${canary.hangingB}, ${canary.ms}`,
      },
    ],
  ]);
  console.log(`timeline: ${timeline.join('; ')}`);
  for (const failure of failures) console.log(`FAIL ${failure}`);
  console.log(failures.length === 0 ? 'faults: PASS' : 'faults: FAIL');
  process.exit(failures.length === 0 ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
