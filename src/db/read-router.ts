/**
 * Where a merchant's list, export and report reads go (docs/architecture/scale.md, "Read
 * replica"): the read replica (DATABASE_READ_URL, PostgreSQL streaming replication) while it is
 * within the freshness bound, else the primary. Writes and everything money-critical never come
 * here: they use the primary's handle as before.
 *
 * - **Freshness bound**: the replica's lag is probed every `probeMs` on the replica itself: 0 when
 *   it has replayed all the WAL it received, else the time since the last transaction it replayed
 *   committed on the primary. Over `maxLagMs`, or unanswered, reads go to the primary until a probe
 *   finds it within the bound again. A list read from the replica is thus at most `maxLagMs` +
 *   `probeMs` behind (plus ORDER_LIST_CACHE_MS for GET /orders' rendered pages).
 * - **Read your writes**: a merchant whose orders this process changed (created, or a step of its
 *   worker) in the last `maxLagMs` + `probeMs` reads from the primary, so its author never sees a
 *   list without its own write. Another process's write is seen within the bound.
 */
import { sql } from 'kysely';
import type { Db } from './database.ts';

export interface ReadRouter {
  /** The handle for `merchantId`'s list, export and report reads. */
  forMerchant(merchantId: string): Db;
  /** This process changed `merchantId`'s data: its reads go to the primary for the window. */
  wrote(merchantId: string): void;
  /** Measures the replica's lag now (the timer does it every probeMs); the lag in ms, undefined when unanswered. */
  probe(): Promise<number | undefined>;
  /** The last lag measured, in ms; undefined: no replica, or it did not answer. */
  lagMs(): number | undefined;
  stop(): void;
}

/** The primary for everything: no replica configured. */
export function primaryOnly(primary: Db): ReadRouter {
  return { forMerchant: () => primary, wrote: () => undefined, probe: async () => undefined, lagMs: () => undefined, stop: () => undefined };
}

const MAX_REMEMBERED_WRITERS = 10_000;

export function createReadRouter(options: { primary: Db; replica: Db; maxLagMs: number; probeMs: number; now?: () => number }): ReadRouter {
  const { primary, replica, maxLagMs, probeMs } = options;
  const now = options.now ?? Date.now;
  const windowMs = maxLagMs + probeMs;
  let lag: number | undefined;
  const writers = new Map<string, number>();

  async function probe(): Promise<number | undefined> {
    try {
      const { rows } = await sql<{ lag_ms: number | null }>`
        select case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
                    else (extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::int end as lag_ms`.execute(replica);
      lag = rows[0]?.lag_ms ?? undefined;
    } catch {
      lag = undefined;
    }
    return lag;
  }

  const timer = setInterval(() => void probe(), probeMs);
  timer.unref();
  void probe();

  return {
    forMerchant(merchantId) {
      const wroteAt = writers.get(merchantId);
      if (wroteAt !== undefined && now() - wroteAt < windowMs) return primary;
      return lag !== undefined && lag <= maxLagMs ? replica : primary;
    },
    wrote(merchantId) {
      if (writers.size >= MAX_REMEMBERED_WRITERS) {
        const cutoff = now() - windowMs;
        for (const [id, at] of writers) if (at < cutoff) writers.delete(id);
        // Still full of recent writers: forget them all, and let every read go to the primary for a window.
        if (writers.size >= MAX_REMEMBERED_WRITERS) {
          writers.clear();
          lag = undefined;
        }
      }
      writers.set(merchantId, now());
    },
    probe,
    lagMs: () => lag,
    stop: () => clearInterval(timer),
  };
}
