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
  databasePoolMax: number;
  dataDir: string;
}

export async function openConfiguredDatabase(
  config: DatabaseSettings,
  options: { migrate?: boolean } = {},
): Promise<DatabaseHandle & { migrated: string[] }> {
  let handle: DatabaseHandle;
  if (config.databaseUrl) {
    handle = await openDatabase({ driver: 'postgres', url: config.databaseUrl, poolMax: config.databasePoolMax });
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
