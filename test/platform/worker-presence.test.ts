/**
 * Worker instances (src/platform/worker-presence.ts, decision 0037): registration and heartbeat,
 * the silence rule a claim's holder is judged by (`holderGone`), and the release of dead instances
 * at the next one's start: on PostgreSQL an instance whose session (and its advisory lock) is gone,
 * on the embedded database an instance of another process.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { type PresenceLog, type WorkerPresence, holderGone, startWorkerPresence } from '../../src/platform/worker-presence.ts';
import { migratedPostgresDatabase, openTestDatabase, testDriver } from '../helpers/database.ts';
import { waitFor } from '../helpers/processes.ts';

/** Beats that never come during a test: the instance stays as the test sets it. */
const NEVER = 3_600_000;

describe('worker instances', () => {
  let database: DatabaseHandle;
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  const started: WorkerPresence[] = [];

  beforeAll(async () => {
    // PostgreSQL: a database of its own, whose URL the instances' sessions connect to.
    const postgres = testDriver() === 'postgres' ? await migratedPostgresDatabase() : undefined;
    url = postgres?.url;
    drop = postgres?.drop;
    database = postgres ? await openDatabase({ driver: 'postgres', url: postgres.url, poolMax: 3 }) : await openTestDatabase();
  });
  afterAll(async () => {
    for (const presence of started) await presence.stop();
    await database.close();
    await drop?.();
  });

  const start = async (options: { heartbeatMs?: number; log?: PresenceLog } = {}) => {
    const presence = await startWorkerPresence({ db: database.db, postgresUrl: url, heartbeatMs: options.heartbeatMs ?? NEVER, log: options.log });
    started.push(presence);
    return presence;
  };
  const rows = () => database.db.selectFrom('workers').select(['id', 'heartbeat_at']).execute();
  const ids = async () => (await rows()).map((row) => row.id).sort();
  const silence = (id: string, ms: number) => sql`update workers set heartbeat_at = statement_timestamp() - ${ms} * interval '1 millisecond' where id = ${id}`.execute(database.db);
  const gone = async (holder: string | null) => (await sql<{ gone: boolean }>`select ${holderGone('t.holder')} as gone from (select ${holder}::uuid as holder) t`.execute(database.db)).rows[0]!.gone;
  const logs = () => {
    const lines: Array<[string, object]> = [];
    return { lines, log: { info: (obj: object, msg: string) => lines.push([msg, obj]), warn: (obj: object, msg: string) => lines.push([msg, obj]) } };
  };

  it('registers an instance that beats every heartbeat, and deletes it when it stops', async () => {
    const presence = await start({ heartbeatMs: 50 });
    const id = presence.holder();
    await silence(id, 3000);
    const silentSince = (await rows()).find((row) => row.id === id)!.heartbeat_at;
    await waitFor(async () => ((await rows()).find((row) => row.id === id)!.heartbeat_at > silentSince ? true : undefined), 5000);
    await presence.stop();
    expect(await ids()).not.toContain(id);
  });

  it('a claim\'s holder is gone when it has no row or has been silent five seconds; two seconds of silence (a GC pause) is not', async () => {
    const presence = await start();
    const id = presence.holder();
    expect(await gone(id)).toBe(false);
    await silence(id, 2000);
    expect(await gone(id)).toBe(false);
    await silence(id, 6000);
    expect(await gone(id)).toBe(true);
    expect(await gone('00000000-0000-7000-8000-0000000000ff')).toBe(true);
    // A claim that names no holder is judged by its lease alone.
    expect(await gone(null)).toBe(false);
    await presence.stop();
  });

  it('an instance that finds its row deleted (taken for dead) registers anew, saying so', async () => {
    const { lines, log } = logs();
    const presence = await start({ heartbeatMs: 50, log });
    const first = presence.holder();
    await database.db.deleteFrom('workers').where('id', '=', first).execute();
    await waitFor(async () => (presence.holder() !== first ? true : undefined), 5000);
    expect(await ids()).toContain(presence.holder());
    expect(lines.map(([msg]) => msg)).toContain('worker instance taken for dead (its row or its connection is gone): its claims are lost');
    await presence.stop();
  });

  it('PostgreSQL: an instance whose session ended (kill -9) is deleted at the next one\'s start; a live one is not, even silent', async (ctx) => {
    if (!url) return ctx.skip();
    const live = await start();
    const killed = await start();
    // What kill -9 does to the instance's session: PostgreSQL ends it and frees its advisory lock.
    // The call waits (up to 5 s) for the session to be gone: it only signals it otherwise, and on a
    // loaded machine the next start could still find the lock held (CI, 2026-12-06).
    await sql`select pg_terminate_backend(l.pid, 5000) from pg_locks l join workers w on l.objid = w.lock_key
              where l.locktype = 'advisory' and l.classid = ${0x776b7273} and w.id = ${killed.holder()}`.execute(database.db);
    await silence(live.holder(), 10_000);
    const { lines, log } = logs();
    const next = await start({ log });
    expect(await ids()).toEqual([live.holder(), next.holder()].sort());
    expect(lines).toContainEqual(['dead worker instances found: their claims are free', { workerIds: [killed.holder()] }]);
    // The silent live one keeps its row (its lock is held) but not its claims.
    expect(await gone(live.holder())).toBe(true);
  });

  it('the embedded database: an instance of another process is deleted at the next one\'s start; one of this process is not', async (ctx) => {
    if (url) return ctx.skip();
    const here = await start();
    const before = '00000000-0000-7000-8000-0000000000aa';
    await database.db.insertInto('workers').values({ id: before, process_token: 'a process before this one', host: 'test', pid: 1 }).execute();
    const next = await start();
    expect(await ids()).toEqual([here.holder(), next.holder()].sort());
  });

  it('live instances release a dead one within a heartbeat, and tell the jobs', async () => {
    const presence = await start({ heartbeatMs: 50 });
    let told = 0;
    presence.onReleased(() => told++);
    const dead = '00000000-0000-7000-8000-0000000000bb';
    // Proven dead on either driver: another process's row (embedded), or no session holds its lock (PostgreSQL).
    await database.db.insertInto('workers').values({ id: dead, process_token: 'another process', host: 'test', pid: 1 }).execute();
    await waitFor(async () => (told > 0 ? true : undefined), 5000);
    expect(await ids()).not.toContain(dead);
  });
});
