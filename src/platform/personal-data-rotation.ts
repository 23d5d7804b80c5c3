/**
 * The sealing pass of personal data at rest (src/lib/personal-data.ts, docs/architecture/keys.md):
 * every value of a sealed column that is clear text (a row from before migration 0046) or sealed
 * under another KEK version than the current one is opened and sealed again under the current
 * one, and each blind index beside it recomputed. In batches of 100 rows; each row is one UPDATE,
 * a compare-and-set on the values it read, so a crash leaves every row old (still opening: its
 * version's KEK is in WALLET_KEK_PREVIOUS) or new, a rerun finishes the rest, and a rerun with
 * nothing left changes nothing. It runs at start (sealing what 0046 left clear), unless the
 * marker of migration 0052 says nothing is clear, and in `admin rotate-kek` (after a KEK
 * rotation): both through personal-data-sealed-marker.ts, which keeps that marker.
 *
 * A table may instead hold its values inside a jsonb column, by key (the outbox's events:
 * event-payload-sealing.ts): the same pass, each value re-sealed in place by its key and the row's
 * other keys left as they are.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { PersonalData, PersonalDataKind } from '../lib/personal-data.ts';

export interface SealedColumns {
  /** The name in reports (`receivers`). */
  readonly name: string;
  readonly table: string;
  /** Sealed columns by the kind of value they hold. */
  readonly columns: Readonly<Record<string, PersonalDataKind>>;
  /** Blind-index columns: the column, and the sealed column whose clear text it indexes. */
  readonly hashes?: Readonly<Record<string, { of: string; kind: PersonalDataKind }>>;
  /**
   * A table whose rows are otherwise never changed (the operations register: append-only, by a
   * trigger that lets through only this pass, which changes nothing but sealed columns).
   */
  readonly appendOnly?: boolean;
  /**
   * The primary key the pass walks and updates by, in order, each with its SQL type; unset: `id`
   * (uuid). A composite key (payout_batch_items: batch_id, line) is walked as a row value.
   */
  readonly key?: ReadonlyArray<{ readonly column: string; readonly type: 'uuid' | 'integer' | 'text' }>;
}

/** Personal values inside a jsonb column of flat objects, by key (a key absent or not a string is left alone). */
export interface SealedJsonValues {
  readonly name: string;
  readonly table: string;
  readonly json: { readonly column: string; readonly keys: Readonly<Record<string, PersonalDataKind>> };
  /** Only the rows whose `column` equals `equals` hold personal values under the keys (the audit log's rename entries). */
  readonly rows?: { readonly column: string; readonly equals: string };
  /** As SealedColumns' appendOnly: the pass declares itself to the append-only trigger. */
  readonly appendOnly?: boolean;
}

export type SealedTable = SealedColumns | SealedJsonValues;

const BATCH = 100;

/** Rows with a value to seal: clear text only (`onlyClear`), or also sealed under another version. */
function stalePredicate(spec: SealedColumns, version: number, onlyClear: boolean) {
  const sealed = onlyClear ? sql`${'^pd[0-9]+:'}` : sql`${`^pd${version}:`}`;
  const hashed = onlyClear ? sql`${'^[0-9]+:'}` : sql`${`^${version}:`}`;
  const checks = [
    ...Object.keys(spec.columns).map((column) => sql`(${sql.ref(column)} is not null and ${sql.ref(column)} !~ ${sealed})`),
    ...Object.entries(spec.hashes ?? {}).map(([column, { of }]) => sql`(${sql.ref(of)} is not null and (${sql.ref(column)} is null or ${sql.ref(column)} !~ ${hashed}))`),
  ];
  return sql.join(checks, sql` or `);
}

/** Runs one batch's compare-and-set updates; returns how many rows changed. */
async function applyUpdates(db: Db, updates: readonly RawBuilder<unknown>[], appendOnly: boolean): Promise<number> {
  let changed = 0;
  const run = async (executor: Db) => {
    for (const update of updates) if (Number((await update.execute(executor)).numAffectedRows ?? 0) > 0) changed += 1;
  };
  // An append-only table's rows are never otherwise updated: its batch is one transaction that
  // declares itself the pass (a round trip per row instead of four: measured in bench/personal-data-start.ts).
  if (appendOnly) {
    await db.transaction().execute(async (trx) => {
      await sql`select set_config('app.personal_data_reseal', 'on', true)`.execute(trx);
      await run(trx);
    });
  } else await run(db);
  return changed;
}

/** Re-seals one table's stale rows; returns how many rows changed. */
export async function resealTable(db: Db, pd: PersonalData, spec: SealedColumns, options: { onlyClear?: boolean } = {}): Promise<number> {
  const version = pd.currentVersion;
  const hashes = Object.entries(spec.hashes ?? {});
  const columns = Object.keys(spec.columns);
  const read = [...columns, ...hashes.map(([column]) => column)];
  const key = spec.key ?? [{ column: 'id', type: 'uuid' }];
  const keyColumns = sql.join(key.map(({ column }) => sql.ref(column)));
  // The key's values as read (text), cast back to their type: the cursor and each update's row.
  const keyValues = (row: Record<string, string | null>) => sql.join(key.map(({ column, type }) => sql`${row[column]}::${sql.raw(type)}`));
  let changed = 0;
  let after: Record<string, string | null> | undefined;
  for (;;) {
    // By key, after the last row seen: a row that fails to open stops the pass, never loops it.
    const { rows } = await sql<Record<string, string | null>>`
      select ${sql.join(key.map(({ column }) => sql`${sql.ref(column)}::text as ${sql.ref(column)}`))}, ${sql.join(read.map((column) => sql.ref(column)))} from ${sql.table(spec.table)}
      where ${after ? sql`(${keyColumns}) > (${keyValues(after)}) and ` : sql``}(${stalePredicate(spec, version, options.onlyClear ?? false)}) order by ${keyColumns} limit ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    const updates = rows.map((row) => {
      const next: Record<string, string | null> = {};
      for (const column of columns) {
        const kind = spec.columns[column]!;
        const value = row[column];
        // With onlyClear, a value sealed under an older version stays as it is (rotate-kek's work).
        next[column] = value === null || value === undefined ? null : options.onlyClear && pd.versionOf(value) !== null ? value : pd.seal(kind, pd.open(kind, value));
      }
      for (const [column, { of, kind }] of hashes) {
        const stored = row[of];
        const current = row[column];
        next[column] = stored === null || stored === undefined ? null : options.onlyClear && current ? current : pd.index(kind, pd.open(spec.columns[of]!, stored));
      }
      const sets = sql.join(read.map((column) => sql`${sql.ref(column)} = ${next[column]}`));
      const unchanged = sql.join(read.map((column) => sql`${sql.ref(column)} is not distinct from ${row[column]}`), sql` and `);
      return sql`update ${sql.table(spec.table)} set ${sets} where (${keyColumns}) = (${keyValues(row)}) and ${unchanged}`;
    });
    changed += await applyUpdates(db, updates, spec.appendOnly ?? false);
    after = rows[rows.length - 1]!;
  }
  return changed;
}

/** Re-seals the stale values of one table's jsonb column, key by key; returns how many rows changed. */
export async function resealJsonValues(db: Db, pd: PersonalData, spec: SealedJsonValues, options: { onlyClear?: boolean } = {}): Promise<number> {
  const onlyClear = options.onlyClear ?? false;
  const sealed = onlyClear ? '^pd[0-9]+:' : `^pd${pd.currentVersion}:`;
  const column = sql.ref(spec.json.column);
  const keys = Object.entries(spec.json.keys);
  const valueOf = (key: string) => sql`(${column} ->> ${key})`;
  // Only a string is a value (jsonb_typeof): a null or a number under the key is not personal data.
  const stale = sql.join(
    keys.map(([key]) => sql`(jsonb_typeof(${column} -> ${key}) = 'string' and ${valueOf(key)} !~ ${sealed})`),
    sql` or `,
  );
  const inRows = spec.rows ? sql`${sql.ref(spec.rows.column)} = ${spec.rows.equals} and ` : sql``;
  let changed = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<Record<string, string | null> & { id: string }>`
      select id::text as id, ${sql.join(keys.map(([key]) => sql`case when jsonb_typeof(${column} -> ${key}) = 'string' then ${valueOf(key)} end as ${sql.ref(key)}`))}
      from ${sql.table(spec.table)} where ${inRows}id > ${after}::uuid and (${stale}) order by id limit ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    const updates = [];
    for (const row of rows) {
      const patch: Record<string, string> = {};
      for (const [key, kind] of keys) {
        const value = row[key];
        const version = value === null || value === undefined ? undefined : pd.versionOf(value);
        // Already current, or (onlyClear) sealed under an older version: left as it is.
        if (version === undefined || version === pd.currentVersion || (onlyClear && version !== null)) continue;
        patch[key] = pd.seal(kind, pd.open(kind, value!));
      }
      if (Object.keys(patch).length === 0) continue;
      // `||` replaces the patched keys only; a compare-and-set on every value read, as above.
      const unchanged = sql.join(keys.map(([key]) => sql`${valueOf(key)} is not distinct from ${row[key]}`), sql` and `);
      updates.push(sql`update ${sql.table(spec.table)} set ${column} = ${column} || ${JSON.stringify(patch)}::jsonb
        where id = ${row.id}::uuid and ${unchanged}`);
    }
    changed += await applyUpdates(db, updates, spec.appendOnly ?? false);
    after = rows[rows.length - 1]!.id;
  }
  return changed;
}

/** Re-seals every table's stale rows; counts by table name. */
export async function resealPersonalData(db: Db, pd: PersonalData, tables: readonly SealedTable[], options: { onlyClear?: boolean } = {}): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const spec of tables) counts[spec.name] = 'json' in spec ? await resealJsonValues(db, pd, spec, options) : await resealTable(db, pd, spec, options);
  return counts;
}
