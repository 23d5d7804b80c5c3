/**
 * Owner liveness of the IN_PROGRESS keys of held routes (docs/architecture/idempotency.md). Each API
 * process is an owner with a random id; while it holds at least one IN_PROGRESS key it writes
 * its heartbeat (`idempotency_owners.heartbeat_at`, the database's clock) every `beatMs`. A key
 * whose owner has not beaten for `leaseMs` belongs to a dead process and is taken over by the
 * next retry, so a crash blocks its keys for at most `leaseMs` + `beatMs`, not a minute.
 * The database's clock, not the processes': owners on several hosts compare one clock.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** How long an owner may stay silent before its keys are taken over. */
export const OWNER_LEASE_MS = 5_000;
/** How often a live owner with keys in flight beats. */
export const OWNER_BEAT_MS = 1_000;

export interface IdempotencyOwner {
  readonly id: string;
  readonly leaseMs: number;
  /** A key was taken: beat while any is held. */
  hold(): void;
  /** A key was settled. */
  letGo(): void;
  /** Stops beating (the app closes). */
  stop(): void;
}

export function createIdempotencyOwner(db: Db, options: { leaseMs?: number; beatMs?: number } = {}): IdempotencyOwner {
  const id = randomUUID();
  const leaseMs = options.leaseMs ?? OWNER_LEASE_MS;
  const beatMs = options.beatMs ?? OWNER_BEAT_MS;
  let held = 0;
  let timer: NodeJS.Timeout | undefined;

  const beat = () => {
    sql`insert into idempotency_owners (id, heartbeat_at) values (${id}, statement_timestamp())
        on conflict (id) do update set heartbeat_at = excluded.heartbeat_at`
      .execute(db)
      // A missed beat is retried by the next; a key inserted meanwhile is protected by its own
      // fresh locked_at for leaseMs.
      .catch(() => undefined);
  };

  return {
    id,
    leaseMs,
    hold() {
      held++;
      if (timer) return;
      beat();
      timer = setInterval(beat, beatMs);
      timer.unref();
    },
    letGo() {
      held = Math.max(0, held - 1);
      if (held > 0 || !timer) return;
      clearInterval(timer);
      timer = undefined;
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      held = 0;
    },
  };
}
