import { Migrator, NO_MIGRATIONS, type MigrationResultSet } from 'kysely';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? '(unknown)'} failed: ${String(result.error)}`, { cause: result.error });
  }
  return (result.results ?? []).map((r) => `${r.direction} ${r.migrationName}`);
}

/** Applies every pending migration; returns what ran. Safe to call on every start. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return unwrap(await migrator(db).migrateToLatest());
}

/** Reverts the latest migration (or every one, with `all`). */
export async function migrateDown(db: Db, options: { all?: boolean } = {}): Promise<string[]> {
  const m = migrator(db);
  if (options.all) return unwrap(await m.migrateTo(NO_MIGRATIONS));
  return unwrap(await m.migrateDown());
}
