/**
 * Issue 44, item 4a: lists read from a real streaming replica (test/helpers/replica.ts: a second
 * cluster made by pg_basebackup from the local server), within the freshness bound, and a
 * merchant's own change read back at once (src/db/read-router.ts). Two service instances on one
 * primary stand for two API processes, each with its read router (probed by hand here, so the test
 * decides when the lag is measured). With the replica's replay paused: the process that did not
 * write lists from the replica (its list lacks the new order), the writer lists from the primary
 * (read your writes); past the bound the replica is left for the primary; resumed, it serves again.
 * PostgreSQL runs only.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { type ReadRouter, createReadRouter } from '../../src/db/read-router.ts';
import type { App } from '../../src/http/types.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createServices } from '../../src/services.ts';
import { testConfig } from '../helpers/app.ts';
import { migratedPostgresDatabase } from '../helpers/database.ts';
import { randomCpf } from '../helpers/documents.ts';
import { type RunningReplica, startReplica } from '../helpers/replica.ts';
import { waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const MAX_LAG_MS = 1000;

describe('a read replica for lists, with a freshness bound and read-your-writes', () => {
  let skipped: string | undefined;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let replica: RunningReplica | undefined;
  let primary: DatabaseHandle | undefined;
  let standby: DatabaseHandle | undefined;
  const routers: ReadRouter[] = [];
  const apps: App[] = [];

  async function instance(): Promise<{ app: App; reads: ReadRouter }> {
    const config = testConfig({ ORDER_LIST_CACHE_MS: '0' });
    const reads = createReadRouter({ primary: primary!.db, replica: standby!.db, maxLagMs: MAX_LAG_MS, probeMs: 3_600_000 });
    const services = await createServices({ config, db: primary!.db, clock: systemClock, reads });
    const app = await buildApp({ config, db: primary!.db, services });
    await app.ready();
    routers.push(reads);
    apps.push(app);
    return { app, reads };
  }

  beforeAll(async () => {
    database = await migratedPostgresDatabase();
    if (!database) {
      skipped = 'a replica streams from PostgreSQL: this file runs in the PostgreSQL run (DATABASE_URL set)';
      return;
    }
    const server = new URL(database.url);
    const started = await startReplica({ host: server.hostname, port: Number(server.port || 5432), user: decodeURIComponent(server.username) || 'postgres' });
    if ('skipped' in started) {
      skipped = started.skipped;
      return;
    }
    replica = started;
    primary = await openDatabase({ driver: 'postgres', url: database.url, poolMax: 5 });
    standby = await openDatabase({ driver: 'postgres', url: replica.on(database.url), poolMax: 5 });
  }, 120_000);

  afterAll(async () => {
    if (standby) await sql`select pg_wal_replay_resume()`.execute(standby.db).catch(() => undefined);
    for (const reads of routers) reads.stop();
    for (const app of apps) await app.close();
    await standby?.close();
    await primary?.close();
    await replica?.stop();
    await database?.drop();
  });

  it('lists from the replica, the author of a change from the primary, and the primary past the bound', async (ctx) => {
    if (skipped) return ctx.skip(skipped);
    const writer = await instance();
    const reader = await instance();
    const { merchant, credential } = await writer.app.services.merchants.createMerchant({ name: 'Loja Réplica' }, { actor: 'test' });
    const headers = { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret };
    const call = async (app: App, method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
      return { status: response.statusCode, body: response.json() as Json };
    };
    const listed = async (app: App) => ((await call(app, 'GET', '/orders')).body.data as Json[]).map((order) => order.id as string).sort();

    const receiver = await call(writer.app, 'POST', '/receivers', {
      type: 'PF',
      document: randomCpf(),
      name: 'Cliente Réplica',
      email: 'replica@example.com',
      walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
      limits: { nightTransactionsEnabled: true },
    });
    expect(receiver.status).toBe(201);
    expect((await call(writer.app, 'POST', `/sandbox/receivers/${receiver.body.id}/kyc`, { decision: 'APPROVE' })).status).toBe(200);
    const first = await call(writer.app, 'POST', '/payin', { receiverId: receiver.body.id, amountBrl: 50 });
    expect(first.status).toBe(201);

    // The replica catches up, and the reader's router measures it within the bound.
    const onReplica = () => sql<{ n: number }>`select count(*)::int as n from orders where merchant_id = ${merchant.id}`.execute(standby!.db).then((r) => r.rows[0]!.n);
    await waitFor(async () => ((await onReplica()) === 1 && (await reader.reads.probe()) === 0 ? true : undefined), 20_000);
    expect(reader.reads.forMerchant(merchant.id)).toBe(standby!.db);
    expect(writer.reads.forMerchant(merchant.id)).toBe(primary!.db); // it just wrote

    // Replay paused: what the primary commits now does not reach the replica's reads.
    await sql`select pg_wal_replay_pause()`.execute(standby!.db);
    const second = await call(writer.app, 'POST', '/payin', { receiverId: receiver.body.id, amountBrl: 60 });
    expect(second.status).toBe(201);
    const both = [first.body.id, second.body.id].sort();

    // The reader lists from the replica: the second order is not there yet (the proof it read there).
    expect(await listed(reader.app)).toEqual([first.body.id]);
    // The writer reads its own write: from the primary.
    expect(await listed(writer.app)).toEqual(both);
    // An order by id is never from the replica.
    expect((await call(reader.app, 'GET', `/orders/${second.body.id}`)).status).toBe(200);

    // Past the bound, still paused: the reader's probe finds the lag over it and reads from the primary.
    await new Promise((resolve) => setTimeout(resolve, MAX_LAG_MS + 300));
    expect(await reader.reads.probe()).toBeGreaterThan(MAX_LAG_MS);
    expect(await listed(reader.app)).toEqual(both);

    // Resumed: caught up, the replica serves the reader again, with both orders.
    await sql`select pg_wal_replay_resume()`.execute(standby!.db);
    await waitFor(async () => ((await onReplica()) === 2 && (await reader.reads.probe()) === 0 ? true : undefined), 20_000);
    expect(reader.reads.forMerchant(merchant.id)).toBe(standby!.db);
    expect(await listed(reader.app)).toEqual(both);
  }, 120_000);
});
