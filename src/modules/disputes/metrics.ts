/**
 * MED claims still open, for operators (docs/architecture/disputes.md; alerts in
 * ops/prometheus/alerts.yml): how many per status, the OPEN ones whose defense deadline passed
 * undefended, and the nearest deadline still ahead. A claim not defended in time is decided
 * against the merchant (and, once the tokens left, charged back): the deadline is what pages.
 * Read when Prometheus scrapes, shared by concurrent scrapes (http/scrape-read.ts).
 *
 * Database-wide, the same on every api process: dashboards and alerts take max() or min(), never sum().
 */
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { scrapeRead } from '../../http/scrape-read.ts';
import { disputesRepo } from './repo.ts';
import { UNRESOLVED } from './state-machine.ts';


const registered = new WeakSet<Registry>();

/** Registers `disputes_unresolved{status}`, `disputes_open_past_deadline` and `disputes_next_defense_deadline_timestamp_seconds`, once per registry. */
export function registerDisputeMetrics(registry: Registry, db: Db, clock: Clock): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  const read = scrapeRead(() => disputesRepo.unresolvedSummary(db, clock.now()));
  const registers = [registry];
  new Gauge({
    name: 'disputes_unresolved',
    help: 'MED claims not yet decided, by status (OPEN: awaiting the merchant\'s defense; DEFENDED: awaiting the PSP\'s decision)',
    labelNames: ['status'],
    registers,
    async collect() {
      const rows = await read();
      if (rows) for (const status of UNRESOLVED) this.set({ status }, rows.find((row) => row.status === status)?.count ?? 0);
    },
  });
  new Gauge({
    name: 'disputes_open_past_deadline',
    help: 'OPEN MED claims whose defense deadline passed without a defense',
    registers,
    async collect() {
      const rows = await read();
      if (rows) this.set(rows.find((row) => row.status === 'OPEN')?.past_deadline ?? 0);
    },
  });
  new Gauge({
    name: 'disputes_next_defense_deadline_timestamp_seconds',
    help: 'Unix time of the nearest defense deadline of an OPEN MED claim still ahead; +Inf when none',
    registers,
    async collect() {
      const rows = await read();
      const next = rows?.find((row) => row.status === 'OPEN')?.next_deadline;
      if (rows) this.set(next ? new Date(next).getTime() / 1000 : Number.POSITIVE_INFINITY);
    },
  });
}
