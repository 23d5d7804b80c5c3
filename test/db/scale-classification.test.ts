/**
 * The migrated schema against src/db/scale-classes.ts and docs/architecture/scale.md (issue 44,
 * item 4; decision 0048): every table has a Citus class, every distributed table has its
 * merchant_id (or says which column it lacks), the foreign keys Citus would refuse are exactly the
 * ones listed to rewrite, every hot statement and every queue claim is listed with whether it
 * filters on merchant_id, and the doc's table of classes says what the list says.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { FOREIGN_KEYS_TO_REWRITE, HOT_QUERIES, QUEUE_CLAIMS, SCALE_CLASSES } from '../../src/db/scale-classes.ts';
import { openTestDatabase } from '../helpers/database.ts';

const TENANT_COLUMN = 'merchant_id';

let database: DatabaseHandle;
let columns: Map<string, Map<string, boolean>>;

beforeAll(async () => {
  database = await openTestDatabase();
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
    select c.table_name, c.column_name, c.is_nullable from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`.execute(database.db);
  columns = new Map();
  for (const row of rows) {
    const table = columns.get(row.table_name) ?? new Map<string, boolean>();
    table.set(row.column_name, row.is_nullable === 'YES');
    columns.set(row.table_name, table);
  }
});
afterAll(() => database?.close());

describe('Citus classes of the tables (src/db/scale-classes.ts)', () => {
  it('classifies every table of the migrated schema, and no table that is not there', () => {
    const tables = [...columns.keys()].sort();
    const unclassified = tables.filter((table) => !(table in SCALE_CLASSES));
    expect(unclassified, 'tables without a Citus class: add each to src/db/scale-classes.ts and docs/architecture/scale.md').toEqual([]);
    expect(Object.keys(SCALE_CLASSES).filter((table) => !columns.has(table)), 'classified tables the schema no longer has').toEqual([]);
  });

  it('gives every distributed table its distribution column, NOT NULL, or says what it lacks', () => {
    const wrong: string[] = [];
    for (const [table, scale] of Object.entries(SCALE_CLASSES)) {
      if (scale.class !== 'distributed') continue;
      const column = scale.column ?? TENANT_COLUMN;
      const nullable = columns.get(table)?.get(column);
      if (scale.missingColumn) {
        // Listed as lacking it: the test fails once the column exists, so the list is brought up to date.
        if (nullable !== undefined) wrong.push(`${table}: has ${column} now; drop missingColumn`);
      } else if (nullable === undefined) wrong.push(`${table}: no ${column} column`);
      else if (nullable && !scale.nullable) wrong.push(`${table}: ${column} is nullable (Citus refuses NULL distribution values): say what those rows become`);
      else if (!nullable && scale.nullable) wrong.push(`${table}: ${column} is NOT NULL now; drop nullable`);
    }
    expect(wrong).toEqual([]);
  });

  it('lists exactly the foreign keys Citus would refuse as they stand', async () => {
    const { rows } = await sql<{ source: string; source_columns: string[]; target: string; target_columns: string[] }>`
      select c.conrelid::regclass::text as source, c.confrelid::regclass::text as target,
        array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as source_columns,
        array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) as target_columns
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = 'public'`.execute(database.db);
    const refused: string[] = [];
    for (const fk of rows) {
      const from = SCALE_CLASSES[fk.source]?.class;
      const to = SCALE_CLASSES[fk.target]?.class;
      const name = `${fk.source}.${fk.source_columns.join(',')} -> ${fk.target}.${fk.target_columns.join(',')}`;
      // Citus: to a reference table from anything; local to local; distributed to distributed
      // only with the distribution column on both sides; never to a distributed table from elsewhere, nor distributed to local.
      const coLocated = fk.source_columns.includes(TENANT_COLUMN) && fk.target_columns.includes(TENANT_COLUMN);
      const allowed = to === 'reference' ? from !== undefined : to === 'local' ? from === 'local' : from === 'distributed' && coLocated;
      if (!allowed) refused.push(name);
    }
    expect(refused.sort(), 'a foreign key Citus refuses: make it carry merchant_id on both sides, or list it in FOREIGN_KEYS_TO_REWRITE with its plan').toEqual([...FOREIGN_KEYS_TO_REWRITE].sort());
  });
});

describe('hot statements and queue claims', () => {
  it('lists every hot statement (test/sql-snapshots) with whether it filters on merchant_id, truly', () => {
    const dir = 'test/sql-snapshots';
    const names = readdirSync(dir).filter((file) => file.endsWith('.sql')).map((file) => file.slice(0, -4)).sort();
    expect(names, 'hot statements not in HOT_QUERIES (src/db/scale-classes.ts)').toEqual(Object.keys(HOT_QUERIES).sort());
    for (const name of names) {
      const text = readFileSync(path.join(dir, `${name}.sql`), 'utf8');
      const filtered = /"?merchant_id"? = \$\d+/.test(text);
      expect(filtered, `${name}: listed ${HOT_QUERIES[name]!.tenant}`).toBe(HOT_QUERIES[name]!.tenant === 'filtered');
    }
  });

  it('lists every FOR UPDATE … SKIP LOCKED claim in src/ by file', () => {
    const found = new Map<string, number>();
    for (const entry of readdirSync('src', { recursive: true, encoding: 'utf8' })) {
      // Not the migrations, nor the list itself (its notes quote the clause).
      if (!entry.endsWith('.ts') || entry.startsWith(`db${path.sep}migrations`) || entry === path.join('db', 'scale-classes.ts')) continue;
      const file = path.join('src', entry);
      // Code only: a claim in SQL (`skip locked` in a template), through Kysely (`.skipLocked()`) or leases.ts's helper (`.$call(skipHeld)`), not in comments.
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      const count = (code.match(/skip locked|\.skipLocked\(\)|\$call\(skipHeld\)/gi) ?? []).length;
      if (count > 0) found.set(file, count);
    }
    expect(Object.fromEntries([...found].sort()), 'a queue claim not in QUEUE_CLAIMS (src/db/scale-classes.ts): list it, per tenant or not').toEqual(
      Object.fromEntries(QUEUE_CLAIMS.map((claim) => [claim.file, claim.count] as const).sort()),
    );
  });
});

describe('docs/architecture/scale.md', () => {
  it('has one row per table with the class the list gives it', () => {
    const doc = readFileSync('docs/architecture/scale.md', 'utf8');
    const rows = new Map<string, string>();
    for (const match of doc.matchAll(/^\| `([a-z_0-9]+)` \| (distributed|reference|local) \|/gm)) rows.set(match[1]!, match[2]!);
    expect(Object.fromEntries([...rows].sort())).toEqual(Object.fromEntries(Object.entries(SCALE_CLASSES).map(([table, scale]) => [table, scale.class] as const).sort()));
  });
});
