/**
 * The one lease/claim mechanism of background work. A row is due when its due column has passed;
 * a worker claims due rows with FOR UPDATE SKIP LOCKED (other workers take the rest, nobody waits)
 * and writes a lease: an instant (`claimed_until`) until which the work is the claimer's. A lease
 * is in force while `claimed_until >= now`; a worker that dies leaves its lease to lapse, and any
 * worker may then claim the row again. Writes that finish the work are conditioned on the lease
 * still being the claimer's, so a late worker cannot overwrite a reclaimed row.
 *
 * Orders keep the lease on the row and are claimed whole by `claimDue`. Webhook deliveries keep
 * theirs in a lease table (one row per attempt in flight, with the claimer's token, so a claim
 * writes no entry in the deliveries' indexes); their claim is fair across endpoints, so its query
 * is the module's (webhooks/delivery-repo.ts), written with `leaseInForce`/`leaseFree` and
 * `leaseEnd` from here.
 */
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import { plannedEachRun } from '../db/prepared-statements.ts';

/** Tables whose rows are claimed by `claimDue` (each has `id` and `claimed_until`). */
export type LeasedTable = 'orders';

/** Tables purged by age. */
export type PurgedTable = 'idempotency_keys';

/** The lease in `column` (e.g. `h.claimed_until`) is held by someone at `now`. */
export const leaseInForce = (column: string, now: Date) => sql<SqlBool>`${sql.ref(column)} >= ${now}`;

/** The row is not held: never claimed, released, or its lease lapsed. */
export const leaseFree = (column: string, now: Date) => sql<SqlBool>`(${sql.ref(column)} is null or ${sql.ref(column)} < ${now})`;

export const leaseEnd = (now: Date, leaseMs: number) => new Date(now.getTime() + leaseMs);

/**
 * Claims up to `limit` due rows of `table` in one statement: the oldest due first, rows another
 * worker holds skipped. Returns the claimed rows' `columns` as they are with the lease written.
 */
export async function claimDue<Row>(
  db: Db,
  spec: { table: LeasedTable; dueColumn: string; columns: readonly string[]; now: Date; limit: number; leaseMs: number },
): Promise<Row[]> {
  const { table, dueColumn, now, limit } = spec;
  const result = await sql<Row>`${plannedEachRun}
    with due as (
      select id from ${sql.table(table)}
      where ${sql.ref(dueColumn)} <= ${now} and ${leaseFree('claimed_until', now)}
      order by ${sql.ref(dueColumn)}, id
      limit ${limit}
      for update skip locked
    )
    update ${sql.table(table)} as claimed set claimed_until = ${leaseEnd(now, spec.leaseMs)}
    from due where claimed.id = due.id
    returning ${sql.join(spec.columns.map((column) => sql.ref(`claimed.${column}`)))}`.execute(db);
  return result.rows;
}

/**
 * Deletes up to `limit` rows whose `column` is before `cutoff`; returns how many. Rows another
 * worker is deleting are skipped, not waited for, so several workers purge side by side.
 */
export async function purgeOlderThan(db: Db, spec: { table: PurgedTable; column: string; cutoff: Date; limit: number }): Promise<number> {
  const { table, column, cutoff, limit } = spec;
  const result = await sql`${plannedEachRun}
    delete from ${sql.table(table)} where ctid in (
      select ctid from ${sql.table(table)}
      where ${sql.ref(column)} < ${cutoff}
      order by ${sql.ref(column)}
      limit ${limit}
      for update skip locked
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
