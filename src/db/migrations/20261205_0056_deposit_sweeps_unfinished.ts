import { type Kysely, sql } from 'kysely';

/**
 * The sweeps not DONE (PENDING, FAILED), for the gauge of sweeps by state (deposits/metrics.ts),
 * read when Prometheus scrapes: without it, counting the FAILED ones would read every sweep ever
 * made. DONE is the only state that grows without end, so the index stays as small as the work
 * outstanding.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index deposit_sweeps_unfinished_idx on deposit_sweeps (status, created_at) where status <> 'DONE'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index deposit_sweeps_unfinished_idx`.execute(db);
}
