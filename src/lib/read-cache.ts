/**
 * A read-through cache of database reads with bounded staleness: an entry lives `ttlMs`, and
 * whoever changes the underlying rows may forget entries at once. A read that started before a
 * forget is never stored after it (it may have seen the rows before the change committed): every
 * forget bumps a generation, and a read stores its result only if the generation it started at
 * is still current. Concurrent misses of one key share one load. Memory is bounded by
 * `maxEntries` (the cache empties when full).
 */
export interface ReadCache<V> {
  /** The cached value, or the loader's, stored unless something was forgotten meanwhile. */
  read(key: string, load: () => Promise<V>): Promise<V>;
  forget(key: string): void;
  /** Forgets the entries whose key starts with `prefix` (e.g. everything of one merchant). */
  forgetPrefix(prefix: string): void;
  clear(): void;
}

export function createReadCache<V>(options: { ttlMs: number; maxEntries: number; now?: () => number }): ReadCache<V> {
  const now = options.now ?? (() => performance.now());
  const entries = new Map<string, { value: V; expiresAt: number }>();
  const loading = new Map<string, { generation: number; promise: Promise<V> }>();
  let generation = 0;

  function load(key: string, loader: () => Promise<V>): Promise<V> {
    const startedAt = generation;
    const promise = loader().then(
      (value) => {
        if (loading.get(key)?.promise === promise) loading.delete(key);
        if (startedAt === generation) {
          if (entries.size >= options.maxEntries) entries.clear();
          entries.set(key, { value, expiresAt: now() + options.ttlMs });
        }
        return value;
      },
      (err: unknown) => {
        if (loading.get(key)?.promise === promise) loading.delete(key);
        throw err;
      },
    );
    loading.set(key, { generation: startedAt, promise });
    return promise;
  }

  return {
    read(key, loader) {
      if (options.ttlMs <= 0) return loader();
      const entry = entries.get(key);
      if (entry && entry.expiresAt > now()) return Promise.resolve(entry.value);
      // A load that began before a forget may answer from before the change: do not join it.
      const pending = loading.get(key);
      if (pending && pending.generation === generation) return pending.promise;
      return load(key, loader);
    },
    forget(key) {
      generation++;
      entries.delete(key);
    },
    forgetPrefix(prefix) {
      generation++;
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
    clear() {
      generation++;
      entries.clear();
    },
  };
}
