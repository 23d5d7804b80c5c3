import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_DIR, renderSnapshots } from './sql-snapshots/render.ts';

const FIX = 'the statement changed: run `npm run sql:snapshots` and commit the .sql files with the change';

describe('SQL snapshots of the hot statements', () => {
  it('match the SQL the repos send', async () => {
    const files = await renderSnapshots();
    for (const [name, text] of files) {
      const committed = await readFile(path.join(SNAPSHOT_DIR, name), 'utf8').catch(() => undefined);
      expect(committed, `${SNAPSHOT_DIR}/${name}: ${committed === undefined ? 'missing' : 'differs'}; ${FIX}`).toBe(text);
    }
  });

  it('has no snapshot of a statement no longer listed', async () => {
    const files = await renderSnapshots();
    const stale = (await readdir(SNAPSHOT_DIR)).filter((name) => name.endsWith('.sql') && !files.has(name));
    expect(stale, `stale snapshots; ${FIX}`).toEqual([]);
  });
});
