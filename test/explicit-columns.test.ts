/**
 * Statements name their columns (issue 25 item 5, issue 39 item 2): a `selectAll()`,
 * `returningAll()`, `returning *` or `alias.*` would hand every column, a sealed key or a secret
 * hash among them, to code that never asked for it, and widen every statement when a column is
 * added. Checked over all of `src/` (migrations, frozen once landed, aside); the few sites that
 * read no table's row are listed below with why.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WHOLE_ROW = /selectAll\(|returningAll\(|returning \*|\b[a-z_]+\.\*|select \* from (?!unnest\()/g;

/** At most five sites, each a `select *` of something that is not a table: its columns are named where it is defined. */
const ALLOWED: Record<string, { match: string; sites: number }> = {
  // A union of two CTEs of this statement (recent, retrying), whose own select lists name their columns.
  'src/modules/webhooks/health-repo.ts': { match: 'select * from ', sites: 2 },
  // The batch's JSON rows, typed column by column in the `as v(...)` just after.
  'src/modules/webhooks/delivery-repo.ts': { match: 'select * from ', sites: 1 },
};

function sources(): string[] {
  return readdirSync('src', { recursive: true, encoding: 'utf8' })
    .filter((entry) => entry.endsWith('.ts') && !entry.startsWith(`db${path.sep}migrations`))
    .map((entry) => path.join('src', entry));
}

const wholeRowStatements = (file: string) => readFileSync(file, 'utf8').match(WHOLE_ROW) ?? [];

describe('explicit columns', () => {
  it('no statement in src/ selects or returns a whole row, but the listed sites', () => {
    const found = sources().flatMap((file) => wholeRowStatements(file).filter((match) => ALLOWED[file]?.match !== match).map((match) => `${file}: ${match}`));
    expect(found, 'name the columns (a shared `…_COLUMNS` list), and only the secret ones where they are needed').toEqual([]);
  });

  it('allows at most five sites, each still there', () => {
    expect(Object.values(ALLOWED).reduce((sum, { sites }) => sum + sites, 0)).toBeLessThanOrEqual(5);
    for (const [file, { match, sites }] of Object.entries(ALLOWED)) {
      expect(wholeRowStatements(file).filter((found) => found === match), `${file}: update ALLOWED (sites there now)`).toHaveLength(sites);
    }
  });
});
