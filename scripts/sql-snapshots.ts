/** npm run sql:snapshots: writes the hot statements' SQL to test/sql-snapshots/*.sql and removes snapshots no longer listed. */
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SNAPSHOT_DIR, renderSnapshots } from '../test/sql-snapshots/render.ts';

const files = await renderSnapshots();
for (const [name, text] of files) await writeFile(path.join(SNAPSHOT_DIR, name), text);
for (const name of await readdir(SNAPSHOT_DIR)) {
  if (name.endsWith('.sql') && !files.has(name)) await rm(path.join(SNAPSHOT_DIR, name));
}
console.log(`wrote ${files.size} SQL snapshots to ${SNAPSHOT_DIR}/`);
