/**
 * The operator's queue of stuck orders as a gauge (GET /admin/orders/stuck counted,
 * docs/architecture/back-office.md): orders in transit unchanged for STUCK_ORDER_MINUTES, and
 * orders FAILED holding money. Read when Prometheus scrapes, at most once per MAX_AGE_MS, shared by
 * concurrent scrapes, through the queue's partial index: it costs what the queue holds.
 *
 * Database-wide, the same on every api process: dashboards and alerts take max(), never sum().
 */
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../../db/database.ts';
import type { Clock } from '../../../lib/clock.ts';
import { ORDER_TYPES } from '../../../lib/order-types.ts';
import { createReadCache } from '../../../lib/read-cache.ts';
import { STUCK_REASONS } from './admin-schemas.ts';
import { adminOrdersRepo } from './admin-search-repo.ts';

const MAX_AGE_MS = 10_000;

const registered = new WeakSet<Registry>();

/** Registers `orders_stuck{type,reason}` on `registry`, once. */
export function registerStuckOrderMetrics(registry: Registry, db: Db, clock: Clock, stuckOrderMinutes: number): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  const cache = createReadCache<Awaited<ReturnType<typeof adminOrdersRepo.stuckCounts>>>({ ttlMs: MAX_AGE_MS, maxEntries: 1 });
  // A database that cannot answer must not fail the scrape: the last values stay; /readyz tells the outage.
  const read = () => cache.read('stuck', () => adminOrdersRepo.stuckCounts(db, new Date(clock.now().getTime() - stuckOrderMinutes * 60_000))).catch(() => undefined);
  new Gauge({
    name: 'orders_stuck',
    help: "Orders in the operator's queue (GET /admin/orders/stuck), by type and reason: IN_TRANSIT_TOO_LONG (unchanged for STUCK_ORDER_MINUTES) or FAILED_WITH_MONEY_HELD",
    labelNames: ['type', 'reason'],
    registers: [registry],
    async collect() {
      const rows = await read();
      if (!rows) return;
      for (const type of ORDER_TYPES) {
        for (const reason of STUCK_REASONS) this.set({ type, reason }, rows.find((row) => row.type === type && row.reason === reason)?.count ?? 0);
      }
    },
  });
}
