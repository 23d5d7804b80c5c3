/**
 * One PGlite instance per test worker, put back to the migrated template between test files.
 *
 * Starting PGlite from the template's dump costs seconds of WASM start-up per file (more on a
 * loaded machine); emptying every table and putting the template's own rows back costs
 * milliseconds. A file that asks for a second database while its first is open gets a fresh
 * instance, as before. An ended handle refuses new work (pglitePool), so a timer a previous file
 * left running cannot write into the next file's data.
 */
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { type DatabaseHandle, openDatabase, startPglite } from '../../src/db/database.ts';
import { pglitePool } from '../../src/db/pglite-pool.ts';
import type { Database } from '../../src/db/schema.ts';

interface TableSeed {
  name: string;
  columns: string[];
  /** The template's rows as JSON (json_agg), or null when it has none. */
  rows: string | null;
}

interface Template {
  tables: TableSeed[];
  sequences: { name: string; lastValue: string | null }[];
}

let shared: { instance: PGlite; template: Template; inUse: boolean } | undefined;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function openReusedPglite(dump: () => Promise<Blob>): Promise<DatabaseHandle> {
  if (shared?.inUse) return openDatabase({ driver: 'pglite', loadDataDir: await dump() });
  if (shared) await restoreTemplate(shared.instance, shared.template);
  else {
    const instance = await startPglite({ loadDataDir: await dump() });
    shared = { instance, template: await readTemplate(instance), inUse: false };
  }
  const current = shared;
  current.inUse = true;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pglitePool(current.instance, { keepOpen: true }) }) });
  return {
    db,
    driver: 'pglite',
    async close() {
      await db.destroy();
      current.inUse = false;
    },
    dump: () => current.instance.dumpDataDir('none'),
  };
}

/** The migrated template's tables (top level: partitions come with their parent), rows and sequences. */
async function readTemplate(instance: PGlite): Promise<Template> {
  const names = await instance.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition and c.relname not like 'kysely_migration%'
      order by c.relname`,
  );
  const tables: TableSeed[] = [];
  for (const { name } of names.rows) {
    const columns = await instance.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
      [name],
    );
    const rows = await instance.query<{ rows: string | null }>(`select json_agg(t)::text as rows from ${quote(name)} t`);
    tables.push({ name, columns: columns.rows.map((row) => row.column_name), rows: rows.rows[0]!.rows });
  }
  const sequences = await instance.query<{ name: string; last_value: string | null }>(
    `select sequencename as name, last_value::text from pg_sequences where schemaname = 'public'`,
  );
  return { tables, sequences: sequences.rows.map((row) => ({ name: row.name, lastValue: row.last_value })) };
}

/**
 * Empties every table and puts the template's rows and sequence positions back, with triggers
 * off (the append-only tables refuse TRUNCATE; counters must not count the restored rows twice).
 */
async function restoreTemplate(instance: PGlite, template: Template): Promise<void> {
  // A transaction a previous file left open must not swallow the reset.
  await instance.exec('rollback').catch(() => undefined);
  await instance.transaction(async (tx) => {
    await tx.exec('set local session_replication_role = replica');
    await tx.exec(`truncate ${template.tables.map((table) => quote(table.name)).join(', ')} restart identity cascade`);
    for (const table of template.tables) {
      if (table.rows === null) continue;
      const columns = table.columns.map(quote).join(', ');
      await tx.query(
        `insert into ${quote(table.name)} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${quote(table.name)}, $1::json)`,
        [table.rows],
      );
    }
    for (const sequence of template.sequences) {
      if (sequence.lastValue === null) {
        await tx.query(`select setval($1::regclass, (select start_value from pg_sequences where schemaname = 'public' and sequencename = $2), false)`, [quote(sequence.name), sequence.name]);
      } else await tx.query('select setval($1::regclass, $2::bigint, true)', [quote(sequence.name), sequence.lastValue]);
    }
  });
}
