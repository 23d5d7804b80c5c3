/**
 * The SQL text of each snapshot statement, exactly as Kysely sends it to the driver (parameters
 * as $1, $2, …): each statement runs against a driver that records the text and returns no rows.
 */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import { SNAPSHOT_STATEMENTS, type SnapshotStatement } from './statements.ts';

export const SNAPSHOT_DIR = 'test/sql-snapshots';

async function captured(statement: SnapshotStatement): Promise<string> {
  const texts: string[] = [];
  const db: Db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') texts.push(event.query.sql);
    },
  });
  await statement.run(db);
  await db.destroy();
  if (texts.length !== 1) throw new Error(`sql snapshot ${statement.name}: sent ${texts.length} statements, expected 1`);
  return texts[0]!;
}

/** Every snapshot file's name and content: a comment naming the statement, then its text. */
export async function renderSnapshots(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const statement of SNAPSHOT_STATEMENTS) {
    files.set(`${statement.name}.sql`, `-- ${statement.name}: ${statement.about}\n${await captured(statement)}\n`);
  }
  return files;
}
