/**
 * Issue 43 item 1 / issue 44 item 3: the deposit watcher with 1k and 10k standing addresses open,
 * against the same counts of open PAYOUT order addresses (the baseline, in the same session).
 * The service's own watcher and standing-deposits pass (createServices, CHAIN_PROVIDER=solana-rpc
 * on a chain simulator at `finalized`), run in this process at the service's pace (each a pass,
 * then its interval, side by side as the worker runs them) on a fresh database `bench_standing_<timestamp>` (BENCH_PG_URL),
 * dropped at the end. Per round: the open addresses seeded by SQL (random owners, no key: nothing
 * ever reaches them), K real addresses made through the API (standing addresses, or PAYOUTs) and
 * each paid by a real SPL transfer; RPC calls counted on this process's fetch, per minute over a
 * quiet window and over the deposits' window; per deposit, sent → detected (`chain_deposits`) and,
 * for a standing address, sent → its PAYOUT created.
 *
 *   node bench/standing-watcher.ts [counts, default 1000,10000] [deposits per round, default 10] [kinds, default orders,standing]
 *
 * BENCH_WAIT_MS bounds the wait for a round's deposits (default 120 s: those found by then are reported).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { type Address, address, generateKeyPairSigner, getBase58Decoder } from '@solana/kit';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ADMIN_TOKEN, testConfig } from '../test/helpers/app.ts';
import { buildTransfer, simulatorRpc } from '../test/helpers/chain-simulator.ts';
import { randomCpf } from '../test/helpers/documents.ts';
import { startSimulator } from './lib/chain-payin.ts';
import { stopChild } from './lib/process.ts';
import { keepOpen, seedOpenPayouts } from './lib/chain-deposit.ts';
import { adminUrl, createDatabase, dropDatabase, withClient } from './lib/database.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const counts = (process.argv[2] ?? '1000,10000').split(',').map(Number);
const perRound = Number(process.argv[3] ?? 10);
const kinds = (process.argv[4] ?? 'orders,standing').split(',') as Array<'orders' | 'standing'>;
const WAIT_MS = Number(process.env.BENCH_WAIT_MS ?? 120_000);
const server = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const INTERVAL_MS = 2000;
const QUIET_MS = Number(process.env.BENCH_QUIET_MS ?? 20_000);
const clock = { slotMs: 100, confirmedLag: 1, finalizedLag: 32 };
const base58 = getBase58Decoder();
const randomAddress = () => base58.decode(randomBytes(32));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
const log = (message: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${message}`);

const name = `bench_standing_${Date.now()}`;
await createDatabase(server, name);
const url = adminUrl(server, name);
const database = await openDatabase({ driver: 'postgres', url, poolMax: 6 });
const sim = await startSimulator(process.cwd(), path.join('/tmp', `${name}-chain.log`), clock);
const rows: string[] = [];
try {
  await migrateToLatest(database.db);
  const config = testConfig({ CHAIN_PROVIDER: 'solana-rpc', SOLANA_RPC_URL: sim.url, CHAIN_TOKEN_MINTS: `USDC:${sim.usdc}`, SOLANA_COMMITMENT: 'finalized' });
  const app = await buildApp({ config, db: database.db });
  await app.ready();
  const services = app.services;
  const { merchant, credential } = await services.merchants.createMerchant({ name: 'Bench Standing' }, { actor: 'bench' });
  const headers = { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret };
  const call = async (method: 'GET' | 'POST', route: string, payload?: object, asAdmin = false) => {
    const response = await app.inject({ method, url: `/api/v1${route}`, headers: asAdmin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : headers, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${route}: ${response.statusCode} ${response.body}`);
    return response.json() as Json;
  };
  const receiver = async () => {
    const made = await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Bench Standing Receiver', email: 'standing@bench.example', walletAddress: randomAddress(), limits: { nightTransactionsEnabled: true } });
    await call('POST', `/sandbox/receivers/${made.id}/kyc`, { decision: 'APPROVE' });
    return made.id as string;
  };
  const seedReceiver = await receiver();
  const adminPost = async (route: string, body: object) => (await fetch(`${sim.adminUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<Json>;
  const rpc = simulatorRpc(sim.url);
  const depositor = await generateKeyPairSigner();
  await adminPost('/airdrop', { address: depositor.address, lamports: 10_000_000_000 });
  await adminPost('/mint-to', { mint: sim.usdc, owner: depositor.address, amount: '1000000000000' });

  // Every seeded address made once (10k of each kind), then `count` of each kind left open per round.
  const most = Math.max(...counts);
  await seedOpenPayouts(url, merchant.id, sim.usdc, most);
  await seedStanding(url, merchant.id, seedReceiver, sim.usdc, most);

  const realFetch = globalThis.fetch;
  let calls = 0;
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (String(input instanceof Request ? input.url : input).startsWith(sim.url)) calls += 1;
    return realFetch(input, init);
  }) as typeof fetch;

  for (const count of counts) {
    for (const kind of kinds) {
      await keepOpen(url, kind === 'orders' ? count : 0);
      await keepStandingOpen(url, kind === 'standing' ? count : 0);
      // The measured addresses: real, made through the API.
      const targets: Array<{ owner: string; id: string }> = [];
      for (let i = 0; i < perRound; i++) {
        const receiverId = await receiver();
        if (kind === 'standing') {
          const made = await call('POST', `/receivers/${receiverId}/standing-addresses`, {});
          targets.push({ owner: made.depositAddress, id: made.id });
        } else {
          const order = await call('POST', '/payout', { receiverId, amountCrypto: 2, sourceToken: 'USDC' });
          targets.push({ owner: order.depositAddress, id: order.id });
        }
      }
      // The service's pace: the watcher a pass, then CHAIN_DEPOSIT_WATCH_INTERVAL_MS; beside it, as
      // the worker runs it, the standing-deposits job a pass, then ORDER_WORKER_INTERVAL_MS.
      let running = true;
      const passTimes: number[] = [];
      const watching = (async () => {
        while (running) {
          const started = performance.now();
          await services.depositWatcher!.runPass();
          passTimes.push(performance.now() - started);
          await sleep(INTERVAL_MS);
        }
      })();
      const ordering = (async () => {
        while (running) {
          await services.standingDeposits.runPass();
          await sleep(config.orders.workerIntervalMs);
        }
      })();
      const loop = Promise.all([watching, ordering]);
      await sleep(3 * INTERVAL_MS); // every balance read once, the new addresses settled
      const quiet0 = { calls, at: performance.now() };
      await sleep(QUIET_MS);
      const quietPerMinute = ((calls - quiet0.calls) / (performance.now() - quiet0.at)) * 60_000;
      const sentAt = new Map<string, number>();
      const busy0 = { calls, at: performance.now() };
      await Promise.all(
        targets.map(async (target) => {
          const { wire } = await buildTransfer(rpc, { payer: depositor, mint: address(sim.usdc) as Address, to: address(target.owner), amount: 2_000_000n });
          await rpc.sendTransaction(wire as never, { encoding: 'base64', skipPreflight: true }).send();
          sentAt.set(target.owner, Date.now());
        }),
      );
      const found = await waitFound(url, kind, targets.map((t) => t.owner), WAIT_MS);
      running = false;
      await loop;
      const busyPerMinute = ((calls - busy0.calls) / (performance.now() - busy0.at)) * 60_000;
      const detect = found.map((f) => f.detected - sentAt.get(f.owner)!).sort((a, b) => a - b);
      const created = found.filter((f) => f.created !== null).map((f) => f.created! - sentAt.get(f.owner)!).sort((a, b) => a - b);
      const passes = [...passTimes].sort((a, b) => a - b);
      const row = `| ${count} | ${kind} | ${Math.round(quietPerMinute)} | ${Math.round(busyPerMinute)} | ${Math.round(percentile(passes, 50))} / ${Math.round(percentile(passes, 99))} | ${found.length}/${perRound} | ${(percentile(detect, 50) / 1000).toFixed(1)} / ${(percentile(detect, 99) / 1000).toFixed(1)} s | ${kind === 'standing' ? `${(percentile(created, 50) / 1000).toFixed(1)} / ${(percentile(created, 99) / 1000).toFixed(1)} s` : '–'} |`;
      rows.push(row);
      log(row);
    }
  }
  globalThis.fetch = realFetch;
  await app.close();
} finally {
  console.log('\n| open addresses | kind | RPC calls/min, quiet | RPC calls/min, deposits arriving | pass p50 / p99 ms | found | sent → detected p50 / p99 | sent → PAYOUT created p50 / p99 |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  await database.close();
  await stopChild(sim.child);
  await dropDatabase(server, name);
}

/** `count` standing addresses of one receiver, each with a deposit address row (random owner and token account, no key). */
async function seedStanding(dbUrl: string, merchantId: string, receiverId: string, mint: string, count: number): Promise<void> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await withClient(dbUrl, async (client) => {
    await client.query(
      `with s as (select id::uuid as id, o, a from unnest($3::text[], $4::text[], $5::text[]) as t(id, o, a)),
       d as (
         insert into deposit_addresses (reference, token, mint, owner_address, token_account, encrypted_private_key, key_version)
         select 'standing:' || id, 'USDC', $6, o, a, 'seeded-no-key', 1 from s returning reference
       )
       insert into standing_deposit_addresses (id, merchant_id, receiver_id, chain, token, deposit_address, pix_key, pix_key_type, recipient_name, description, created_at)
       select id, $1, $2, 'solana', 'USDC', o, '52998224725', 'CPF', 'Bench Standing', 'bench-seeded', now() from s`,
      [merchantId, receiverId, ids, ids.map(randomAddress), ids.map(randomAddress), mint],
    );
    await client.query('analyze standing_deposit_addresses; analyze deposit_addresses');
  });
}

/** Only `count` of the seeded standing addresses watched: the others disabled long ago (no longer read). */
async function keepStandingOpen(dbUrl: string, count: number): Promise<void> {
  await withClient(dbUrl, async (client) => {
    await client.query(
      `with seeded as (select id, row_number() over (order by id) as n from standing_deposit_addresses where description = 'bench-seeded')
       update standing_deposit_addresses a set
         status = case when s.n <= $1 then 'ACTIVE' else 'DISABLED' end,
         disabled_at = case when s.n <= $1 then null else now() - interval '7 days' end
       from seeded s where a.id = s.id`,
      [count],
    );
    // The measured addresses of the rounds before: no longer watched either.
    await client.query(`update standing_deposit_addresses set status = 'DISABLED', disabled_at = now() - interval '7 days' where description is null`);
    await client.query('analyze standing_deposit_addresses');
  });
}

/** Each address's first credited deposit, and for a standing address its PAYOUT's creation (epoch ms). */
async function waitFound(dbUrl: string, kind: 'orders' | 'standing', owners: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let found: Array<{ owner: string; detected: number; created: number | null }> = [];
  while (Date.now() < deadline) {
    found = await withClient(dbUrl, async (client) =>
      (
        await client.query<{ owner: string; detected: string; created: string | null }>(
          `select c.deposit_address as owner, extract(epoch from c.detected_at) * 1000 as detected, extract(epoch from o.created_at) * 1000 as created
           from chain_deposits c left join standing_address_deposits sd on sd.signature = c.signature left join orders o on o.id = sd.order_id
           where c.deposit_address = any($1::text[])`,
          [owners],
        )
      ).rows.map((r) => ({ owner: r.owner, detected: Number(r.detected), created: r.created === null ? null : Number(r.created) })),
    );
    if (found.length >= owners.length && (kind === 'orders' || found.every((f) => f.created !== null))) break;
    await sleep(250);
  }
  return found;
}
