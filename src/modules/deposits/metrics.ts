/**
 * PAYOUT deposit sweeps by state, for operators (docs/architecture/back-office.md, "Metrics and
 * the Grafana dashboard"): read when Prometheus scrapes (http/scrape-read.ts; sweeps-repo.ts
 * `outstanding`: only what is not DONE). A sweep that waits (no SOL at the sponsor), stays PENDING
 * (expired, rebuilt, again) or FAILED shows here as a count and an age.
 *
 * Database-wide, the same on every api process: dashboards and alerts take max(), never sum().
 */
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { scrapeRead } from '../../http/scrape-read.ts';
import { sweepsRepo } from './sweeps-repo.ts';


const registered = new WeakSet<Registry>();

/** Registers `deposit_sweeps_by_state{state}` and `deposit_sweeps_oldest_age_seconds{state}` on `registry`, once. */
export function registerSweepMetrics(registry: Registry, db: Db, clock: Clock): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  const read = scrapeRead(() => sweepsRepo.outstanding(db));
  const registers = [registry];
  new Gauge({
    name: 'deposit_sweeps_by_state',
    help: 'PAYOUT deposit sweeps not done, by state: WAITING (credited, no sweep yet), PENDING (sent, not landed), FAILED (left for an operator), database-wide',
    labelNames: ['state'],
    registers,
    async collect() {
      const rows = await read();
      if (rows) for (const row of rows) this.set({ state: row.state }, row.count);
    },
  });
  new Gauge({
    name: 'deposit_sweeps_oldest_age_seconds',
    help: 'Age of the oldest sweep in each state (WAITING: since its deposit was seen; PENDING, FAILED: since the sweep began); 0 when none',
    labelNames: ['state'],
    registers,
    async collect() {
      const rows = await read();
      const now = clock.now().getTime();
      if (rows) for (const row of rows) this.set({ state: row.state }, row.oldest ? Math.max(0, now - new Date(row.oldest).getTime()) / 1000 : 0);
    },
  });
}
