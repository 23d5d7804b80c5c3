/**
 * The operator's queue of stuck orders as a gauge (GET /admin/orders/stuck counted,
 * docs/architecture/back-office.md): orders in transit unchanged for STUCK_ORDER_MINUTES, and
 * orders FAILED holding money. Read when Prometheus scrapes, shared by concurrent
 * scrapes (http/scrape-read.ts), through the queue's partial index: it costs what the queue holds.
 *
 * Database-wide, the same on every api process: dashboards and alerts take max(), never sum().
 */
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../../db/database.ts';
import type { Clock } from '../../../lib/clock.ts';
import { ORDER_TYPES } from '../../../lib/order-types.ts';
import { scrapeRead } from '../../../http/scrape-read.ts';
import { STUCK_REASONS } from './admin-schemas.ts';
import { adminOrdersRepo } from './admin-search-repo.ts';


const registered = new WeakSet<Registry>();

/** Registers `orders_stuck{type,reason}` on `registry`, once. */
export function registerStuckOrderMetrics(registry: Registry, db: Db, clock: Clock, stuckOrderMinutes: number): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  const read = scrapeRead(() => adminOrdersRepo.stuckCounts(db, new Date(clock.now().getTime() - stuckOrderMinutes * 60_000)));
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
