/**
 * Orders by status, for operators' dashboards (docs/architecture/back-office.md, "Metrics and the
 * Grafana dashboard"): a gauge read when Prometheus scrapes, from the trigger-maintained counters
 * (merchant_order_counts, migration 0009), never from `orders` itself. The read sums every
 * merchant's shards: a few rows per merchant and status, so it costs the same at a million
 * orders as at ten. At most one read per MAX_AGE_MS, shared by concurrent scrapes.
 *
 * Every api process reports the same database-wide numbers: dashboards take max(), never sum().
 */
import { sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../../db/database.ts';

const MAX_AGE_MS = 5_000;

interface StatusCount {
  type: string;
  status: string;
  count: string;
}

const readCounts = (db: Db): Promise<StatusCount[]> =>
  db
    .selectFrom('merchant_order_counts')
    .select(['type', 'status', sql<string>`sum(count)::text`.as('count')])
    .groupBy(['type', 'status'])
    .execute();

const registered = new WeakSet<Registry>();

/** Registers `orders_by_status{type,status}` on `registry`, once per registry. */
export function registerOrderStatusMetrics(registry: Registry, db: Db, now: () => number = performance.now.bind(performance)): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  let readAt = -Infinity;
  let reading: Promise<StatusCount[]> | undefined;

  new Gauge({
    name: 'orders_by_status',
    help: 'Orders now in each status, by type (PAYIN, PAYOUT), database-wide: the merchant_order_counts counters, read at most every 5 s',
    labelNames: ['type', 'status'],
    registers: [registry],
    async collect() {
      if (now() - readAt < MAX_AGE_MS) return;
      let rows: StatusCount[];
      try {
        rows = await (reading ??= readCounts(db).finally(() => (reading = undefined)));
      } catch {
        // A database that cannot answer must not turn the whole scrape into a 500 (the HTTP and
        // process metrics still matter then): the last values stay; /readyz tells the outage.
        return;
      }
      readAt = now();
      this.reset();
      for (const row of rows) this.set({ type: row.type, status: row.status }, Number(row.count));
    },
  });
}
