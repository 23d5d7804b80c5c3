/**
 * The one claim mechanism of background work. A row is due when its due column has passed; a
 * worker claims due rows with FOR UPDATE SKIP LOCKED (other workers take the rest, nobody waits)
 * and writes a lease (`claimed_until`); a worker that dies leaves its lease to lapse, and any
 * worker may then claim the row again. Writes that finish the work are conditioned on the lease
 * still being the claimer's, so a late worker cannot overwrite a reclaimed row. (Webhook
 * deliveries keep their leases in a table of their own: webhooks/delivery-repo.ts.)
 */
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import { plannedEachRun } from '../db/prepared-statements.ts';

/** Tables whose rows are claimed whole by `claimDue` (each has `id` and `claimed_until`). */
export type LeasedTable = 'orders';

/** Tables purged by age. */
export type PurgedTable = 'idempotency_keys';

/** The row is not held: never claimed, released, or its lease lapsed. */
const leaseFree = (now: Date) => sql<SqlBool>`(claimed_until is null or claimed_until < ${now})`;

export const leaseEnd = (now: Date, leaseMs: number) => new Date(now.getTime() + leaseMs);

/**
 * Claims up to `limit` due rows of `table` in one statement: the oldest due first, rows another
 * worker holds skipped. Returns the claimed rows as they are with the lease written.
 */
export async function claimDue<Row>(
  db: Db,
  spec: { table: LeasedTable; dueColumn: string; now: Date; limit: number; leaseMs: number },
): Promise<Row[]> {
  const { table, dueColumn, now, limit } = spec;
  const result = await sql<Row>`${plannedEachRun}
    with due as (
      select id from ${sql.table(table)}
      where ${sql.ref(dueColumn)} <= ${now} and ${leaseFree(now)}
      order by ${sql.ref(dueColumn)}, id
      limit ${limit}
      for update skip locked
    )
    update ${sql.table(table)} as claimed set claimed_until = ${leaseEnd(now, spec.leaseMs)}
    from due where claimed.id = due.id
    returning claimed.*`.execute(db);
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
