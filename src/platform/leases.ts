/**
 * The one lease/claim mechanism of background work. A row is due when its due column has passed;
 * a worker claims due rows with FOR UPDATE SKIP LOCKED (other workers take the rest, nobody waits)
 * and writes a lease: an instant (`claimed_until`) until which the work is the claimer's. A lease
 * is in force while `claimed_until >= now`; a worker that dies leaves its lease to lapse, and any
 * worker may then claim the row again. Writes that finish the work are conditioned on the lease
 * still being the claimer's, so a late worker cannot overwrite a reclaimed row.
 *
 * A claim may also name its holder, a worker instance (`holder`, platform/worker-presence.ts): the
 * row is then free as soon as that instance is gone or silent, its lease notwithstanding, so a
 * killed worker's rows are taken within a second or two, not when the lease lapses. Writes that
 * finish the work are then guarded by the holder and the lease together (the claim as made).
 *
 * Orders keep the lease on the row and are claimed whole by `claimDue`; disputes and settlements'
 * PIX payments too, their lease being their next look (`leaseIn: 'due'`). Webhook deliveries keep theirs in a lease table (one
 * row per attempt in flight, with the claimer's token, so a claim writes no entry in the
 * deliveries' indexes); their claim is fair across endpoints, so its query is the module's
 * (webhooks/delivery-repo.ts), written with `leaseInForce`/`leaseFree` and `leaseEnd` from here.
 *
 * Work done inside one transaction needs no lease: `skipHeld` locks the rows it selects until
 * that transaction ends, skipping those another holds (expiries, the webhook fan-out). Purges by
 * age (`purgeBatch`, `purgeAll`) delete in batches with the same skip, so workers purge side by side.
 */
import { type RawBuilder, type SelectQueryBuilder, sql, type SqlBool } from 'kysely';
import type { Db } from '../db/database.ts';
import { plannedEachRun } from '../db/prepared-statements.ts';
import { holderGone } from './worker-presence.ts';

/** Tables whose rows are claimed by `claimDue` (each has `id`, and `claimed_until` unless its lease is its due column). */
export type LeasedTable = 'orders' | 'disputes' | 'settlements';

/** Tables purged in batches. */
export type PurgedTable = 'idempotency_keys' | 'webhook_deliveries' | 'events' | 'webhook_endpoints';

/** Tables whose rows hang on a purged row and go with it. */
export type DependentTable = 'webhook_delivery_attempts' | 'webhook_endpoint_secrets';

/** The lease in `column` (e.g. `h.claimed_until`) is held by someone at `now`. */
export const leaseInForce = (column: string, now: Date) => sql<SqlBool>`${sql.ref(column)} >= ${now}`;

/** The row is not held: never claimed, released, or its lease lapsed. */
export const leaseFree = (column: string, now: Date) => sql<SqlBool>`(${sql.ref(column)} is null or ${sql.ref(column)} < ${now})`;

export const leaseEnd = (now: Date, leaseMs: number) => new Date(now.getTime() + leaseMs);

/**
 * Claims up to `limit` due rows of `table` in one statement: the oldest due first, rows another
 * worker holds skipped. Returns the claimed rows' `columns` as they are with the lease written.
 *
 * `leaseIn: 'due'` writes the lease into the due column itself, for a row with no schedule but
 * its next look (disputes): pushed `leaseMs` ahead, the row is due again when the lease lapses,
 * so no separate "held" test is needed.
 *
 * `holder` (tables with `claimed_by`: orders) writes the claiming worker instance into `claimed_by`
 * (null: a claimer with no instance, tests and tools), and takes rows whose holder is gone.
 */
export async function claimDue<Row>(
  db: Db,
  spec: {
    table: LeasedTable;
    dueColumn: string;
    columns: readonly string[];
    now: Date;
    limit: number;
    leaseMs: number;
    leaseIn?: 'claimed_until' | 'due';
    holder?: string | null;
  },
): Promise<Row[]> {
  const { table, dueColumn, now, limit, holder } = spec;
  const inDue = spec.leaseIn === 'due';
  const named = holder !== undefined && !inDue;
  const free = named ? sql`(${leaseFree('claimed_until', now)} or ${holderGone('claimed_by')})` : leaseFree('claimed_until', now);
  const notHeld = inDue ? sql`` : sql` and ${free}`;
  const leaseColumn = inDue ? sql.ref(dueColumn) : sql.raw('claimed_until');
  const holderSet = named ? sql`, claimed_by = ${holder}` : sql``;
  const result = await sql<Row>`${plannedEachRun}
    with due as (
      select id from ${sql.table(table)}
      where ${sql.ref(dueColumn)} <= ${now}${notHeld}
      order by ${sql.ref(dueColumn)}, id
      limit ${limit}
      for update skip locked
    )
    update ${sql.table(table)} as claimed set ${leaseColumn} = ${leaseEnd(now, spec.leaseMs)}${holderSet}
    from due where claimed.id = due.id
    returning ${sql.join(spec.columns.map((column) => sql.ref(`claimed.${column}`)))}`.execute(db);
  return result.rows;
}

/**
 * Locks the rows a select returns until the caller's transaction ends, skipping rows another
 * transaction holds: the claim of work done inside that transaction, which needs no lease (a
 * worker that dies rolls back and lets go). Use as `.$call(skipHeld)`.
 */
export function skipHeld<DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return qb.forUpdate().skipLocked();
}

/**
 * Deletes up to `limit` rows of `table` that `where` picks (refer to the table by its name), the
 * `orderBy` column's oldest first, with the rows of `dependents` that hang on them (`column` holds
 * the purged row's id), in one statement; returns how many rows of `table` went. Rows another
 * worker is deleting are skipped, not waited for, so several workers purge side by side. `key` is
 * what names a row: `id`, or `ctid` for a table whose key has several columns (no dependents then).
 */
export async function purgeBatch(
  db: Db,
  spec: {
    table: PurgedTable;
    key: 'id' | 'ctid';
    where: RawBuilder<SqlBool>;
    orderBy?: string;
    limit: number;
    dependents?: readonly { table: DependentTable; column: string }[];
  },
): Promise<number> {
  const { table, key, limit } = spec;
  const order = spec.orderBy === undefined ? sql`` : sql` order by ${sql.ref(`${table}.${spec.orderBy}`)}`;
  const dependents = (spec.dependents ?? []).map(
    (dependent, n) =>
      sql`, ${sql.raw(`dependent_${n}`)} as (delete from ${sql.table(dependent.table)} using doomed where ${sql.ref(`${dependent.table}.${dependent.column}`)} = doomed.${sql.raw(key)})`,
  );
  const result = await sql`${plannedEachRun}
    with doomed as (
      select ${sql.raw(key)} from ${sql.table(table)}
      where ${spec.where}${order}
      limit ${limit}
      for update skip locked
    )${sql.join(dependents, sql``)}
    delete from ${sql.table(table)} where ${sql.raw(key)} in (select ${sql.raw(key)} from doomed)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** `purgeBatch` again until a batch comes back short (nothing left to purge) or `signal` aborts; returns how many rows went. */
export async function purgeAll(db: Db, spec: Parameters<typeof purgeBatch>[1], signal?: AbortSignal): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    const deleted = await purgeBatch(db, spec);
    total += deleted;
    if (deleted < spec.limit) break;
  }
  return total;
}

/** Deletes up to `limit` rows whose `column` is before `cutoff`, oldest first; returns how many. */
export function purgeOlderThan(db: Db, spec: { table: PurgedTable; column: string; cutoff: Date; limit: number }): Promise<number> {
  const { table, column, cutoff, limit } = spec;
  return purgeBatch(db, { table, key: 'ctid', where: sql<SqlBool>`${sql.ref(`${table}.${column}`)} < ${cutoff}`, orderBy: column, limit });
}
