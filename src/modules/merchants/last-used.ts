/**
 * An API key's `lastUsedAt` without a write per request: each process marks a key at most once
 * per `intervalMs` (a minute), and the mark goes through the batch writer, not awaited, so the
 * request never waits on it. The time shown is thus up to a minute behind the last use, and a
 * failed write is only retried at the key's next use (the field is informative, not a record).
 */
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { createBatchWriter } from '../../platform/batch-writer.ts';
import { merchantsRepo as repo } from './repo.ts';

const DEFAULT_INTERVAL_MS = 60_000;
/** Bounds memory against many keys in one process: forgetting only means one extra early write. */
const MAX_TRACKED = 100_000;

export function createLastUseRecorder(deps: { db: Db; clock: Clock; intervalMs?: number }) {
  const intervalMs = deps.intervalMs ?? DEFAULT_INTERVAL_MS;
  const markedAt = new Map<string, number>();
  const writer = createBatchWriter<{ id: string; at: Date }>((uses) => repo.markCredentialsUsed(deps.db, uses), { maxBatch: 500 });

  return {
    /** Called on every authenticated key or token use: a map lookup unless a minute has passed. */
    touch(credentialId: string): void {
      const now = performance.now();
      const last = markedAt.get(credentialId);
      if (last !== undefined && now - last < intervalMs) return;
      if (markedAt.size >= MAX_TRACKED) markedAt.clear();
      markedAt.set(credentialId, now);
      writer.add({ id: credentialId, at: deps.clock.now() }).catch(() => markedAt.delete(credentialId));
    },
    /** Rows not yet written (tests wait for 0). */
    get pending() {
      return writer.pending;
    },
  };
}
