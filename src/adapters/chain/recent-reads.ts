/**
 * Reads of what the node knows that every transfer asks and that changes slowly: the latest
 * blockhash and the recent prioritization fees. Each is asked of the node at most once per
 * RECENT_READ_MS and shared by the transfers prepared meanwhile (single and batched), instead of
 * two calls per transaction: a busy worker prepared ~13 transactions a second, each asking both.
 *
 * - A blockhash read up to RECENT_READ_MS ago leaves a transaction that much less of its ~150
 *   blocks (60 s at 400 ms slots) before it expires. A status that finds a transaction EXPIRED
 *   forgets the blockhash kept, whatever its age: the re-signed transaction that follows gets one
 *   read after the expiry was seen (a chain whose slots jump, as the tests' hand-moved clock does,
 *   could otherwise hand it the expired one again).
 * - A priority fee is a percentile over the last 150 slots: half a second does not move it.
 * - Concurrent callers share one call in flight; a failed call is not kept, the next caller asks.
 * - The age counts from when the call was made, not answered: never younger than it is.
 */
export const RECENT_READ_MS = 500;

export interface RecentReads<K extends string, T> {
  /** The answer of a call made less than maxAgeMs ago for `key`, or of a new one. */
  get(key: K): Promise<T>;
  /** The next `get` of `key` asks the node (what was read is known to be stale). */
  forget(key: K): void;
}

/** `read` (by key) asked at most once per `maxAgeMs` per key; answers within that share its answer. */
export function readAtMostEvery<K extends string, T>(maxAgeMs: number, read: (key: K) => Promise<T>, now: () => number = Date.now): RecentReads<K, T> {
  const recent = new Map<K, { answer: Promise<T>; askedAt: number }>();
  return {
    get(key) {
      const kept = recent.get(key);
      if (kept && now() - kept.askedAt < maxAgeMs) return kept.answer;
      const entry = { answer: read(key), askedAt: now() };
      recent.set(key, entry);
      entry.answer.catch(() => {
        if (recent.get(key) === entry) recent.delete(key);
      });
      return entry.answer;
    },
    forget: (key) => void recent.delete(key),
  };
}
