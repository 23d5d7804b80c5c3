/**
 * The fault suite of issue 14 (`npm run test:faults`, run by .ci/run on PostgreSQL): kill -9 of
 * the API process, twice, during ORDERS concurrent POST /payin with Idempotency-Keys, the
 * clients retrying every failure (connection lost, 5xx, 409 in progress) until they get an
 * answer. It asserts that every acknowledged order exists exactly once, that no order exists
 * without an acknowledgement, and that every retry after the acknowledgement replays the first
 * answer; it prints its figures and exits non-zero on any failure.
 *
 * Environment: FAULTS_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/exchange_faults;
 * the database is dropped and created), FAULTS_ORDERS (default 500).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../test/helpers/processes.ts';
import { type ApiProcess, startApi } from './api-process.ts';

const DATABASE_URL = process.env.FAULTS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/exchange_faults';
const ORDERS = Number(process.env.FAULTS_ORDERS ?? 500);
/** Acknowledged orders after which the API is killed (kill -9) and restarted. */
const KILL_AFTER = [Math.floor(ORDERS * 0.2), Math.floor(ORDERS * 0.6)];
const CLIENT_DEADLINE_MS = 150_000;
const ADMIN_TOKEN = `faults-admin-${randomUUID()}`;

type Json = Record<string, unknown>;

interface Outcome {
  key: string;
  /** The first 201 the client saw. */
  first?: Json;
  /** The first 201 was itself a replay (the original answer was lost with the process). */
  firstWasReplay: boolean;
  attempts: number;
  /** The verification retry after the acknowledgement gave the same answer, as a replay. */
  replayMatches?: boolean;
  unexpected?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function recreateDatabase() {
  const url = new URL(DATABASE_URL);
  const name = url.pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(DATABASE_URL), { pathname: '/postgres' }).toString() });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
}

async function main() {
  const started = Date.now();
  await recreateDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-faults-'));
  const port = await freePort();
  const env = { DATABASE_URL, DATA_DIR: dataDir, PORT: String(port), ADMIN_TOKEN, ROLES: 'api', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', SANDBOX_ENABLED: 'true' };
  let api: ApiProcess = await startApi(env);
  const base = `http://127.0.0.1:${port}/api/v1`;

  const call = async (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
    const response = await fetch(`${base}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, headers: response.headers, body: (await response.json().catch(() => ({}))) as Json };
  };

  // A merchant and an active receiver that takes orders at any hour.
  const created = await call('POST', '/admin/merchants', { authorization: `Bearer ${ADMIN_TOKEN}` }, { name: 'Fault Suite' });
  if (created.status !== 201) throw new Error(`merchant: ${created.status} ${JSON.stringify(created.body)}`);
  const credential = created.body.credential as { apiKey: string; apiSecret: string };
  const merchantId = (created.body.merchant as { id: string }).id;
  const auth = { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret };
  const receiver = await call('POST', '/receivers', auth, { type: 'PJ', document: '11222333000181', name: 'Loja Falhas', email: 'falhas@example.com', walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', limits: { nightTransactionsEnabled: true } });
  if (receiver.status !== 201) throw new Error(`receiver: ${receiver.status} ${JSON.stringify(receiver.body)}`);
  const receiverId = receiver.body.id as string;
  const kyc = await call('POST', `/sandbox/receivers/${receiverId}/kyc`, auth, { decision: 'APPROVE' });
  if (kyc.status !== 200) throw new Error(`kyc: ${kyc.status} ${JSON.stringify(kyc.body)}`);

  let acknowledged = 0;
  let kills = 0;
  let killing: Promise<void> | undefined;
  const failures: Record<string, number> = {};
  const count = (what: string) => (failures[what] = (failures[what] ?? 0) + 1);

  async function killAndRestart() {
    kills++;
    api.kill9();
    await api.exited;
    api = await startApi(env);
  }

  async function client(i: number): Promise<Outcome> {
    const outcome: Outcome = { key: `fault-${i}-${randomUUID()}`, firstWasReplay: false, attempts: 0 };
    const headers = { ...auth, 'idempotency-key': outcome.key };
    const body = { receiverId, amountBrl: Number(((1000 + i) / 100).toFixed(2)) };
    const deadline = Date.now() + CLIENT_DEADLINE_MS;
    while (Date.now() < deadline) {
      outcome.attempts++;
      let response;
      try {
        response = await call('POST', '/payin', headers, body);
      } catch {
        count('connection lost');
        await sleep(300 + Math.random() * 300);
        continue;
      }
      if (response.status === 201) {
        if (!outcome.first) {
          outcome.first = response.body;
          outcome.firstWasReplay = response.headers.get('idempotent-replayed') === 'true';
          acknowledged++;
          if (KILL_AFTER[kills] !== undefined && acknowledged >= KILL_AFTER[kills]! && !killing) killing = killAndRestart().finally(() => (killing = undefined));
          continue; // verify: the next answer must replay this one
        }
        outcome.replayMatches = response.headers.get('idempotent-replayed') === 'true' && JSON.stringify(response.body) === JSON.stringify(outcome.first);
        return outcome;
      }
      count(`${response.status} ${String(response.body.error ?? '')}`);
      if (response.status === 409 && response.body.error === 'CONFLICT') await sleep(250);
      else if (response.status >= 500) await sleep(100 + Math.random() * 200);
      else {
        outcome.unexpected = `${response.status} ${JSON.stringify(response.body)}`;
        return outcome;
      }
    }
    outcome.unexpected = 'no answer before the deadline';
    return outcome;
  }

  const outcomes = await Promise.all(Array.from({ length: ORDERS }, (_, i) => client(i)));
  while (killing) await killing;

  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  const { rows } = await db.query<{ id: string; n: string }>('select id, count(*) over (partition by amount_brl) as n from orders where merchant_id = $1', [merchantId]);
  await db.end();
  const found = new Set(rows.map((row) => row.id));
  const acked = outcomes.filter((o) => o.first);
  const ackedIds = acked.map((o) => o.first!.id as string);
  const figures = {
    ordersSent: ORDERS,
    kills,
    acknowledged: acked.length,
    acknowledgedByReplay: outcomes.filter((o) => o.firstWasReplay).length,
    found: acked.filter((o) => found.has(o.first!.id as string)).length,
    ordersInDatabase: rows.length,
    duplicated: rows.filter((row) => Number(row.n) > 1).length,
    distinctAcknowledgedIds: new Set(ackedIds).size,
    replayed: outcomes.filter((o) => o.replayMatches).length,
    replayMismatches: outcomes.filter((o) => o.replayMatches === false).length,
    unexpected: outcomes.filter((o) => o.unexpected).length,
    retriesByCause: failures,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  console.log('faults: kill -9 of the API during concurrent payins with client retries');
  console.log(JSON.stringify(figures, null, 2));
  for (const o of outcomes.filter((x) => x.unexpected).slice(0, 5)) console.log(`unexpected answer for ${o.key}: ${o.unexpected}`);

  await api.stop();
  await rm(dataDir, { recursive: true, force: true });
  const ok =
    figures.acknowledged === ORDERS &&
    figures.found === ORDERS &&
    figures.ordersInDatabase === ORDERS &&
    figures.duplicated === 0 &&
    figures.distinctAcknowledgedIds === ORDERS &&
    figures.replayed === ORDERS &&
    figures.unexpected === 0 &&
    figures.kills === KILL_AFTER.length;
  console.log(ok ? 'faults: PASS' : 'faults: FAIL');
  process.exit(ok ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
