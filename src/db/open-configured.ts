import path from 'node:path';
import { type DatabaseHandle, openDatabase } from './database.ts';
import { acquireEmbeddedLock } from './embedded-lock.ts';
import { migrateToLatest } from './migrate.ts';

/**
 * The database the configuration names: PostgreSQL at DATABASE_URL, or the embedded PGlite
 * under $DATA_DIR/pglite (locked to this process). Unless told otherwise, pending migrations
 * are applied before it is handed out.
 */
export interface DatabaseSettings {
  /** `postgresql://...`; absent: the embedded PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  /** PostgreSQL itself when `databaseUrl` is a pooler in transaction mode: the migrations run on it. */
  databaseDirectUrl?: string | undefined;
  /** False behind a pooler that does not keep named prepared statements. */
  databaseNamedStatements?: boolean;
  databasePoolMax: number;
  dataDir: string;
}

export async function openConfiguredDatabase(
  config: DatabaseSettings,
  options: { migrate?: boolean } = {},
): Promise<DatabaseHandle & { migrated: string[] }> {
  let handle: DatabaseHandle;
  if (config.databaseUrl) {
    const pooled = { driver: 'postgres', url: config.databaseUrl, poolMax: config.databasePoolMax, namedStatements: config.databaseNamedStatements ?? true } as const;
    if (config.databaseDirectUrl && config.databaseDirectUrl !== config.databaseUrl && options.migrate !== false) {
      // Migrations on PostgreSQL itself, not through the pooler: a migration may hold session
      // state (its lock, a SET) across statements a pooler in transaction mode would spread over
      // several server connections.
      const migrated = await migrateDirect(config.databaseDirectUrl);
      return { ...(await openDatabase(pooled)), migrated };
    }
    handle = await openDatabase(pooled);
  } else {
    const release = await acquireEmbeddedLock(config.dataDir);
    try {
      const opened = await openDatabase({ driver: 'pglite', dataDir: path.join(config.dataDir, 'pglite') });
      handle = { ...opened, close: () => opened.close().finally(release) };
    } catch (err) {
      await release();
      throw err;
    }
  }
  if (options.migrate === false) return { ...handle, migrated: [] };
  try {
    return { ...handle, migrated: await migrateToLatest(handle.db) };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

async function migrateDirect(url: string): Promise<string[]> {
  const direct = await openDatabase({ driver: 'postgres', url, poolMax: 1 });
  try {
    return await migrateToLatest(direct.db);
  } finally {
    await direct.close();
  }
}
