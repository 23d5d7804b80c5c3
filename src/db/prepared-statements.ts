/**
 * Named prepared statements for node-postgres, chosen by the SQL text: the first time a
 * connection runs a text it is parsed and planned once, and every later run on that connection
 * only binds and executes. For GET /orders, planning took 1.35 ms against 0.44 ms of execution,
 * on cores PostgreSQL shares with the service. Kysely sends the same text for the same query
 * shape, so the set of texts is small; a connection prepares at most MAX_PER_CONNECTION of them
 * (texts that vary, such as IN lists of every length, then run unnamed as before).
 *
 * A prepared statement keeps the plan it chose once it settles on a generic one (after five
 * runs), until the next ANALYZE of its tables. That is wrong for the workers' queue claims: a
 * plan made while the queue was empty (sequential scans: nothing to scan) stayed in force after a
 * burst of 10,000 deliveries, and one claim took 60 ms instead of 1 ms (bench/README.md, issue
 * 13). Statements whose best plan follows the queue's depth carry `PLANNED_EACH_RUN` and run
 * unnamed: planned at every run, on the table as it is.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';

const MAX_PER_CONNECTION = 500;

/** Marks a statement to plan at every run (a comment, so it also shows in pg_stat_activity). */
export const PLANNED_EACH_RUN = '/* planned each run */';
/** `PLANNED_EACH_RUN` for a query: first in a sql template, or through a builder's `modifyFront`. */
export const plannedEachRun = sql.raw(PLANNED_EACH_RUN);

/** Statement names by text, shared by every connection: hashing each query's text showed in profiles. */
const names = new Map<string, string>();
const MAX_NAMES = 2000;

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) names.clear();
    name = `k${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Errors after which this connection's copy of the statement cannot be trusted: "cached plan
 * must not change result type" (a migration changed a table under it), "prepared statement does
 * not exist", and failures in the client before the query was sent (node-postgres closes the
 * statement at the server but still counts it as parsed).
 */
const untrustedAfter = (err: { code?: string }) => err.code === undefined || err.code === '0A000' || err.code === '26000';

type QueryArgs = [text: unknown, values?: unknown, callback?: unknown];

export function preparedStatements(client: pg.PoolClient): void {
  const prepared = new Set<string>();
  const stale = new Set<string>();
  const plainQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: QueryArgs) => {
    const [text, values, callback] = args;
    if (typeof text !== 'string' || typeof callback === 'function' || !Array.isArray(values) || values.length === 0) return plainQuery(...args);
    if (text.includes(PLANNED_EACH_RUN)) return plainQuery(...args);
    const name = nameOf(text);
    if (stale.has(name)) return plainQuery(...args);
    if (!prepared.has(name)) {
      if (prepared.size >= MAX_PER_CONNECTION) return plainQuery(...args);
      prepared.add(name);
    }
    return (plainQuery({ name, text, values }) as Promise<unknown>).catch((err: { code?: string }) => {
      // This query fails once, as it would have in its transaction anyway; later ones run unnamed.
      if (untrustedAfter(err)) stale.add(name);
      throw err;
    });
  }) as typeof client.query;
}
