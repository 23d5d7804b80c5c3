/**
 * The SQL text of each snapshot statement, exactly as Kysely sends it to the driver (parameters
 * as $1, $2, …): each statement runs against a driver that records the text and returns no rows.
 */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import { SNAPSHOT_STATEMENTS } from './statements.ts';

export const SNAPSHOT_DIR = 'test/sql-snapshots';

/**
 * The one statement `run` sends, with its parameters: `run` talks to a driver that records the
 * text and returns no rows (a repo's `…OrThrow` then throws after sending; the text is kept).
 */
export async function capturedStatement(run: (db: Db) => Promise<unknown>): Promise<{ sql: string; parameters: readonly unknown[] }> {
  const sent: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const db: Db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') sent.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  await run(db).catch(() => undefined);
  await db.destroy();
  if (sent.length !== 1) throw new Error(`expected one statement, got ${sent.length}`);
  return sent[0]!;
}

/** Every snapshot file's name and content: a comment naming the statement, then its text. */
export async function renderSnapshots(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const statement of SNAPSHOT_STATEMENTS) {
    files.set(`${statement.name}.sql`, `-- ${statement.name}: ${statement.about}\n${(await capturedStatement(statement.run).catch((err: Error) => { throw new Error(`sql snapshot ${statement.name}: ${err.message}`); })).sql}\n`);
  }
  return files;
}
