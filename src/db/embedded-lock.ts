/**
 * PGlite keeps its files in one directory that only one process may open. A lock file with
 * the owner's pid refuses a second process (say, the admin CLI while the server runs) instead
 * of letting both corrupt the database. A lock left by a dead process is taken over.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function acquireEmbeddedLock(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx' });
      return () => rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw Object.assign(
          new Error(`the embedded database in ${dataDir} is in use by process ${owner}; stop it first, or use the admin API, or set DATABASE_URL`, { cause: err }),
          // Recognised by src/startup-failure.ts, which prints this message alone.
          { code: 'EMBEDDED_DATABASE_LOCKED' },
        );
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock the embedded database in ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
