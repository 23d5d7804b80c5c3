/**
 * The sealing pass's marker (migration 0052, docs/decisions/0032-sealing-marker-kept-by-the-database.md):
 * one row of `personal_data_sealing` saying that no personal value was clear when the pass last
 * looked, with KEK version `kek_version` current, over the sealed columns `columns` fingerprints.
 *
 * - At start (`sealClearPersonalData`): when the marker holds for the current KEK version and the
 *   columns of this code, nothing is scanned; otherwise the pass seals what is clear and sets the
 *   marker, unless a clear write happened meanwhile.
 * - In `admin rotate-kek` (`resealAllPersonalData`): the marker is voided first (a pass cut short
 *   leaves it void), every value is re-sealed under the current version, then the marker is set.
 *
 * What voids it: a trigger on every sealed table, for any row written with a clear value (an
 * older process during a rolling deploy, a hand-made INSERT), in the writer's own transaction; it
 * adds one to `clear_writes`. Setting the marker is a compare-and-set on the `clear_writes` read
 * before the scan: an UPDATE that waits for a clear writer still open, then finds the count moved.
 * New sealed columns change the fingerprint, so the first start of the code that has them scans.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { PersonalData } from '../lib/personal-data.ts';
import { type SealedTable, resealPersonalData } from './personal-data-rotation.ts';

export interface SealingOutcome {
  /** False when the marker held and no table was read. */
  scanned: boolean;
  /** Rows changed, by table name (empty when not scanned). */
  sealed: Record<string, number>;
  /** Whether the marker now holds (false: a clear write raced the pass; the next start scans). */
  marked: boolean;
}

/** What the marker covers: every sealed table, column, kind and blind index, in one stable digest. */
export function sealedColumnsFingerprint(tables: readonly SealedTable[]): string {
  const shape = tables
    .map((spec) => ('json' in spec ? [spec.table, spec.json.column, Object.entries(spec.json.keys).sort()] : [spec.table, Object.entries(spec.columns).sort(), Object.entries(spec.hashes ?? {}).sort()]))
    .sort();
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 32);
}

interface Marker {
  clearWrites: string;
  kekVersion: number | null;
  columns: string | null;
}

async function readMarker(db: Db): Promise<Marker> {
  const read = () => sql<Marker>`select clear_writes::text as "clearWrites", kek_version as "kekVersion", columns from personal_data_sealing`.execute(db);
  const { rows } = await read();
  if (rows[0]) return rows[0];
  // The row is the migration's; put back (unmarked) if someone removed it.
  await sql`insert into personal_data_sealing default values on conflict (id) do nothing`.execute(db);
  return (await read()).rows[0]!;
}

/** Sets the marker if no clear write happened since `clearWrites` was read; says whether it did. */
async function mark(db: Db, clearWrites: string, kekVersion: number, columns: string): Promise<boolean> {
  const result = await sql`
    update personal_data_sealing set kek_version = ${kekVersion}, columns = ${columns}, sealed_at = now()
    where clear_writes = ${clearWrites}::bigint`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Start-up: seals the values still clear, unless the marker says there are none for this KEK version and these columns. */
export async function sealClearPersonalData(db: Db, pd: PersonalData, tables: readonly SealedTable[]): Promise<SealingOutcome> {
  const columns = sealedColumnsFingerprint(tables);
  const marker = await readMarker(db);
  if (marker.kekVersion === pd.currentVersion && marker.columns === columns) return { scanned: false, sealed: {}, marked: true };
  const sealed = await resealPersonalData(db, pd, tables, { onlyClear: true });
  return { scanned: true, sealed, marked: await mark(db, marker.clearWrites, pd.currentVersion, columns) };
}

/** `admin rotate-kek`: voids the marker, re-seals every value under the current KEK version, then sets it. */
export async function resealAllPersonalData(db: Db, pd: PersonalData, tables: readonly SealedTable[]): Promise<{ resealed: Record<string, number>; marked: boolean }> {
  await readMarker(db);
  await sql`update personal_data_sealing set kek_version = null, columns = null, sealed_at = null`.execute(db);
  const { clearWrites } = await readMarker(db);
  // Cut short (a KEK missing for a version in use), the marker stays void: the next start scans.
  const resealed = await resealPersonalData(db, pd, tables);
  return { resealed, marked: await mark(db, clearWrites, pd.currentVersion, sealedColumnsFingerprint(tables)) };
}
