/**
 * Makes one PGlite instance look like a node-postgres pool, so Kysely's own PostgresDialect
 * (and therefore the same SQL) runs on both drivers.
 *
 * PGlite is a single session: two transactions must never interleave on it. `connect()` hands
 * the session to one borrower at a time and the next waits until `release()`, exactly like a
 * pool of size one. Code that opens a transaction and then queries through the root `db`
 * instead of its `trx` would wait for itself here; on PostgreSQL the same code would escape
 * its transaction, so both are bugs and this makes them loud.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * `keepOpen`: ending the pool leaves the instance running for another pool (tests reuse one
 * instance per worker). An ended pool refuses new work either way, so nothing left running by
 * its last user can reach the instance.
 */
export function pglitePool(pglite: PGlite, options: { keepOpen?: boolean } = {}): PostgresPool {
  let tail: Promise<void> = Promise.resolve();
  let ended = false;

  const client: Omit<PostgresPoolClient, 'release'> = {
    async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
      const result = await pglite.query<R>(sql, parameters as unknown[]);
      return {
        command: (result as { command?: PostgresQueryResult<R>['command'] }).command ?? 'SELECT',
        rowCount: result.affectedRows ?? result.rows.length,
        rows: result.rows,
      };
    },
  } as Omit<PostgresPoolClient, 'release'>;

  return {
    async connect() {
      if (ended) throw new Error('this database handle is closed');
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const previous = tail;
      tail = previous.then(() => turn);
      await previous;
      let released = false;
      return {
        ...client,
        release() {
          if (released) return;
          released = true;
          release();
        },
      } as PostgresPoolClient;
    },
    async end() {
      ended = true;
      await tail;
      if (!options.keepOpen) await pglite.close();
    },
  };
}
