/**
 * Worker instances and their liveness (decision 0037; docs/architecture/background-work.md,
 * "Worker instances and their claims"). Each running worker registers an instance (a `workers`
 * row with a random id) and writes its heartbeat every second, on the database's clock. The claims
 * it makes name it (`orders.claimed_by`, platform/leases.ts), so they are free the moment the
 * instance is gone or silent, whatever their lease says: a dead worker's orders no longer wait 30 s.
 *
 * Two ways an instance is found dead:
 * - silent: no heartbeat for WORKER_SILENCE_MS (5 s, five beats). A live worker stalled by a GC
 *   pause or a slow commit for a second or two keeps its claims; one stalled longer loses them, and
 *   every write it makes afterwards is guarded by the claim it started under, so it cannot act on an
 *   order another worker took (orders/repo.ts).
 * - proven dead, at once: on PostgreSQL each instance holds a session-level advisory lock, keyed by
 *   its row's `lock_key`, on a connection of its own; the database frees it the moment the
 *   process's connection closes (kill -9 included), so a lock another session can take is an
 *   instance that no longer exists. The embedded database is opened by one process at a time
 *   (db/embedded-lock.ts), so a row another process registered is dead. Every instance deletes
 *   the rows proven dead at its start and at each heartbeat: a restarted worker, or any live one
 *   within a second, releases a dead worker's claims.
 * An instance that finds its own row deleted (it was taken for dead) registers anew: its claims
 * are lost, its later writes refused by their guards.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type ColumnType, type CompiledQuery, type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database.ts';

/** How often an instance writes its heartbeat. */
export const WORKER_HEARTBEAT_MS = 1_000;
/** How long an instance may stay silent before its claims are free (five missed beats). */
export const WORKER_SILENCE_MS = 5_000;
/** A row silent this long is deleted, proof or not (a host gone with its connection half-open). */
const FORGOTTEN_AFTER_MS = 60_000;
/** The advisory locks' first key (the two-int form, apart from the one-bigint keys used elsewhere): 'wkrs'. */
const LOCK_CLASS = 0x776b7273;
/** This process, for the embedded database's proof (one process at a time). */
const PROCESS_TOKEN = randomUUID();

const dbAgo = (ms: number) => sql<Date>`statement_timestamp() - ${sql.lit(ms)} * interval '1 millisecond'`;

/** The holder in `column` is no live worker instance: gone, or silent for WORKER_SILENCE_MS. Null (no holder named) is not gone. */
export const holderGone = (column: string) =>
  sql<boolean>`(${sql.ref(column)} is not null and not exists (select 1 from workers w where w.id = ${sql.ref(column)} and w.heartbeat_at >= ${dbAgo(WORKER_SILENCE_MS)}))`;

export interface WorkerPresence {
  /** The instance's id now: what its claims name (a new one after it was taken for dead). */
  holder(): string;
  /** `handler` runs when this instance deleted dead instances: their claims are free, the jobs should look. */
  onReleased(handler: () => void): () => void;
  /** Stops beating, deletes the instance's row and lets go of its lock. */
  stop(): Promise<void>;
}

export interface PresenceLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PresenceOptions {
  db: Db;
  /** PostgreSQL: the URL of the connection that holds the instance's advisory lock and writes its beats. Absent: the embedded database. */
  postgresUrl?: string | undefined;
  log?: PresenceLog | undefined;
  /** Tests beat faster or slower. */
  heartbeatMs?: number;
}

/** Where an instance's statements run: its own PostgreSQL session (the lock lives there), or the embedded database. */
interface PresenceSession {
  run<R>(query: RawBuilder<R>): Promise<R[]>;
  /** Whether the session holding the instance's proof is still the one it registered on (PostgreSQL: the connection never dropped). */
  intact(): boolean;
  /** Opens a new session if the last one dropped (PostgreSQL). */
  renew(): Promise<void>;
  /** The condition on `workers w` under which a row's instance is proven dead. */
  provenDead: RawBuilder<boolean>;
  /** The statement that registers an instance and, in the same statement, holds its proof. */
  register(id: string): RawBuilder<{ lock_key: number }>;
  /** Lets go of a proof this session still holds for a row it no longer beats for. */
  letGo(lockKey: number): RawBuilder<unknown> | undefined;
  close(): Promise<void>;
}

const insertRow = (id: string) =>
  sql`insert into workers (id, process_token, host, pid) values (${id}, ${PROCESS_TOKEN}, ${hostname()}, ${process.pid}) returning lock_key`;

function embeddedSession(db: Db): PresenceSession {
  return {
    run: async (query) => (await query.execute(db)).rows,
    intact: () => true,
    renew: async () => undefined,
    provenDead: sql<boolean>`w.process_token <> ${PROCESS_TOKEN}`,
    register: (id) => insertRow(id) as RawBuilder<{ lock_key: number }>,
    letGo: () => undefined,
    close: async () => undefined,
  };
}

function postgresSession(db: Db, url: string, log?: PresenceLog): PresenceSession {
  let client: pg.Client | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url, application_name: 'exchange-worker-presence' });
    // A dropped connection is a lost lock: the next beat registers anew (never an uncaught error).
    const lost = (err?: Error) => {
      if (client !== next) return;
      client = undefined;
      log?.warn({ err }, 'worker presence connection lost: this instance will register anew');
    };
    next.on('error', lost);
    next.on('end', () => lost());
    await next.connect();
    client = next;
  };
  return {
    async run(query) {
      const target = client;
      if (!target) throw new Error('worker presence connection lost');
      const compiled: CompiledQuery = query.compile(db);
      return (await target.query(compiled.sql, compiled.parameters as unknown[])).rows as never[];
    },
    intact: () => client !== undefined,
    renew: async () => {
      if (!client) await connect();
    },
    provenDead: sql<boolean>`pg_try_advisory_xact_lock(${sql.lit(LOCK_CLASS)}, w.lock_key)`,
    // The lock is taken in the statement that inserts the row: no session ever sees the row unlocked.
    register: (id) => sql<{ lock_key: number }>`with registered as (${insertRow(id)}) select lock_key, pg_advisory_lock(${sql.lit(LOCK_CLASS)}, lock_key) from registered`,
    letGo: (lockKey) => sql`select pg_advisory_unlock(${sql.lit(LOCK_CLASS)}, ${lockKey}::int)`,
    async close() {
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}

export async function startWorkerPresence(options: PresenceOptions): Promise<WorkerPresence> {
  const { db, log } = options;
  const session = options.postgresUrl ? postgresSession(db, options.postgresUrl, log) : embeddedSession(db);
  const heartbeatMs = options.heartbeatMs ?? WORKER_HEARTBEAT_MS;
  const released = new Set<() => void>();
  let id = '';
  /** The lock this session holds for `id` (PostgreSQL). */
  let lockKey: number | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> = Promise.resolve();

  async function register() {
    const previous = id;
    // Same session, row deleted (silent past FORGOTTEN_AFTER_MS): its lock is still ours, and useless.
    const stale = session.intact() && lockKey !== undefined ? session.letGo(lockKey) : undefined;
    if (stale) await session.run(stale);
    await session.renew();
    id = randomUUID();
    [{ lock_key: lockKey }] = (await session.run(session.register(id))) as [{ lock_key: number }];
    // The previous row, if a dropped connection left it: its claims go now, not in five seconds.
    if (previous) await session.run(sql`delete from workers where id = ${previous}`);
    log?.info({ workerId: id, ...(previous ? { previousWorkerId: previous } : {}) }, 'worker instance registered');
  }

  /** Deletes the rows of instances proven dead or long silent; tells the jobs when it did. */
  async function release() {
    const gone = await session.run(sql<{ id: string }>`
      delete from workers w where w.id <> ${id} and (${session.provenDead} or w.heartbeat_at < ${dbAgo(FORGOTTEN_AFTER_MS)})
      returning w.id`);
    if (gone.length === 0) return;
    log?.info({ workerIds: gone.map((row) => row.id) }, 'dead worker instances found: their claims are free');
    for (const handler of [...released]) handler();
  }

  async function beat() {
    try {
      const alive = session.intact() && (await session.run(sql<{ id: string }>`update workers set heartbeat_at = statement_timestamp() where id = ${id} returning id`)).length === 1;
      if (!alive) {
        log?.warn({ workerId: id }, 'worker instance taken for dead (its row or its connection is gone): its claims are lost');
        await register();
      }
      await release();
    } catch (err) {
      log?.warn({ err, workerId: id }, 'worker heartbeat failed');
    }
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      beating = beat().finally(schedule);
    }, heartbeatMs);
    timer.unref();
  }

  await register();
  await release();
  schedule();

  return {
    holder: () => id,
    onReleased(handler) {
      released.add(handler);
      return () => void released.delete(handler);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      await beating;
      await session.run(sql`delete from workers where id = ${id}`).catch(() => undefined);
      await session.close();
    },
  };
}

/** One registered worker instance (migration 0054); the database's clock writes its times. */
export interface WorkersTable {
  id: string;
  lock_key: ColumnType<number, never, never>;
  process_token: string;
  host: string;
  pid: number;
  started_at: ColumnType<Date, never, never>;
  heartbeat_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

declare module '../db/schema.ts' {
  interface Database {
    workers: WorkersTable;
  }
}
