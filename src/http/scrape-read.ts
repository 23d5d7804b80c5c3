/**
 * A database read behind gauges that Prometheus collects at scrape time: made at most once per
 * `maxAgeMs` and shared by concurrent scrapes, so N scrapers cost one query. A database that cannot
 * answer must not fail the scrape: the read answers undefined, the gauges keep their last values,
 * and /readyz tells the outage.
 */
import { createReadCache } from '../lib/read-cache.ts';

export const SCRAPE_READ_MAX_AGE_MS = 10_000;

export function scrapeRead<T>(load: () => Promise<T>, maxAgeMs = SCRAPE_READ_MAX_AGE_MS): () => Promise<T | undefined> {
  const cache = createReadCache<T>({ ttlMs: maxAgeMs, maxEntries: 1 });
  return () => cache.read('scrape', load).catch(() => undefined);
}
