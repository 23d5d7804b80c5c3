/**
 * The Kysely instance over either driver: node-postgres when DATABASE_URL is set, PGlite
 * (WebAssembly PostgreSQL, in-process) otherwise. Both speak PostgreSQL SQL, so the same
 * migrations and queries serve both; only connection handling differs.
 */
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { pglitePool } from './pglite-pool.ts';
import { preparedStatements } from './prepared-statements.ts';
import type { Database } from './schema.ts';

/** The root database or a transaction: repos accept either. */
export type Db = Kysely<Database>;
/** Functions that must run inside their caller's transaction take this. */
export type Trx = Transaction<Database>;
export type DatabaseDriver = 'postgres' | 'pglite';

export interface DatabaseHandle {
  db: Db;
  driver: DatabaseDriver;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, to start other instances from. */
  dump?: () => Promise<Blob>;
}

export type DatabaseTarget =
  /** namedStatements: false behind a pooler in transaction mode that does not keep them (PgBouncer < 1.21). */
  | { driver: 'postgres'; url: string; poolMax?: number; namedStatements?: boolean }
  /** dataDir unset means in memory; loadDataDir starts from a dump (tests clone a migrated template). */
  | { driver: 'pglite'; dataDir?: string; loadDataDir?: Blob };

const PG_INT8_OID = 20;
const PG_DATE_OID = 1082;
/** A calendar date stays 'YYYY-MM-DD' text: as a JS Date it would shift with the time zone. */
const keepText = (value: string) => value;

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.driver === 'postgres') {
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: postgresPool(target.url, target.poolMax ?? 10, target.namedStatements ?? true) }) });
    return { db, driver: 'postgres', close: () => db.destroy() };
  }
  const instance = await startPglite(target);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pglitePool(instance) }) });
  return { db, driver: 'pglite', close: () => db.destroy(), dump: () => instance.dumpDataDir('none') };
}

/** A PGlite instance as every handle on it reads results (dates as text, like node-postgres here). */
export async function startPglite(target: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PGlite> {
  // Loaded only here: importing PGlite compiles its WebAssembly (~0.1-0.2 s of CPU), which every
  // process on PostgreSQL (the service, each CLI command) would otherwise pay for nothing.
  const { PGlite } = await import('@electric-sql/pglite');
  const instance = new PGlite({
    parsers: { [PG_DATE_OID]: keepText },
    ...(target.dataDir ? { dataDir: target.dataDir } : {}),
    ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
  });
  await instance.waitReady;
  return instance;
}

function postgresPool(url: string, max: number, namedStatements: boolean): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5_000,
    // PGlite returns int8 (counts, sums of integers) as numbers; do the same here so results
    // match across drivers. Amounts are NUMERIC and arrive as strings on both.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8_OID ? Number : oid === PG_DATE_OID ? keepText : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener
  // that would crash the process instead of letting the next query reconnect.
  pool.on('error', () => {});
  // Behind PgBouncer in transaction mode (before 1.21) a statement prepared on one server connection
  // is not on the next: every query then runs unnamed (parsed and planned each time).
  if (namedStatements) pool.on('connect', preparedStatements);
  return pool;
}
