/**
 * Re-sealing of every value sealed under WEBHOOK_SECRET_KEY or API_SECRET_PEPPER after a rotation
 * (`npm run admin -- rotate-secrets`, docs/architecture/keys.md): each sealed column offers a
 * `reseal` that opens a value under the current key or the previous one and answers it sealed
 * under the current key. Rows are walked in primary-key order, one compare-and-set per stale value
 * (written only if the column still holds what was read): a crash leaves every value either old
 * (still opened by the previous key) or new, so a rerun finishes the job, and a rerun with nothing
 * left changes nothing. No version is stored: the AES-GCM tag says which key sealed a value.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export interface SealedColumn {
  /** Its name in reports (`apiCredentials`, `webhookSecrets`, ...). */
  readonly name: string;
  readonly table: string;
  /** The primary key: the walk's order and the update's target. */
  readonly keyColumns: readonly string[];
  readonly column: string;
  /** Other columns `reseal` reads (the associated data's). */
  readonly readColumns?: readonly string[];
  /** The variable whose previous slot opens stale values, for the error that says what to set. */
  readonly keyVariable: string;
  /**
   * The value sealed under the current key, undefined when it is already, 'unsealable' when only a
   * secret we do not hold could re-seal it (left as is and counted). Throws when no key opens it.
   */
  reseal(value: string, row: Readonly<Record<string, unknown>>): string | undefined | 'unsealable';
}

export interface ResealCounts {
  resealed: number;
  /** Values left as they are: see SealedColumn.reseal. */
  unsealable: number;
}

export class SecretRotationError extends Error {
  readonly code = 'SECRET_DOES_NOT_OPEN';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SecretRotationError';
  }
}

const BATCH = 200;

async function resealColumn(db: Db, target: SealedColumn): Promise<ResealCounts> {
  const keys = target.keyColumns.map((name) => sql.ref(name));
  const keyTuple = sql`(${sql.join(keys)})`;
  const counts = { resealed: 0, unsealable: 0 };
  let after: unknown[] | undefined;
  for (;;) {
    const { rows } = await sql<Record<string, unknown>>`
      select ${sql.join([...keys, ...(target.readColumns ?? []).map((name) => sql.ref(name))])}, ${sql.ref(target.column)} as sealed_value from ${sql.table(target.table)}
      where ${sql.ref(target.column)} is not null ${after ? sql`and ${keyTuple} > (${sql.join(after)})` : sql``}
      order by ${sql.join(keys)} limit ${BATCH}`.execute(db);
    if (rows.length === 0) return counts;
    for (const row of rows) {
      const value = String(row.sealed_value);
      let resealed: string | undefined | 'unsealable';
      try {
        resealed = target.reseal(value, row);
      } catch (err) {
        const id = target.keyColumns.map((name) => String(row[name])).join('/');
        const fix = `set ${target.keyVariable}_PREVIOUS to the key that sealed it (the values re-sealed so far stay so) and run rotate-secrets again`;
        throw new SecretRotationError(`${target.name} ${id} opens under neither ${target.keyVariable} nor ${target.keyVariable}_PREVIOUS: ${fix}`, { cause: err });
      }
      if (resealed === 'unsealable') counts.unsealable += 1;
      else if (resealed !== undefined) {
        const where = sql.join(target.keyColumns.map((name) => sql`${sql.ref(name)} = ${row[name]}`), sql` and `);
        const result = await sql`update ${sql.table(target.table)} set ${sql.ref(target.column)} = ${resealed} where ${where} and ${sql.ref(target.column)} = ${value}`.execute(db);
        if ((result.numAffectedRows ?? 0n) > 0n) counts.resealed += 1;
      }
    }
    const last = rows.at(-1)!;
    after = target.keyColumns.map((name) => last[name]);
  }
}

/** Counts per column, in the order given; stops at the first value no key opens (SecretRotationError). */
export async function resealSecrets(db: Db, columns: readonly SealedColumn[]): Promise<Record<string, ResealCounts>> {
  const report: Record<string, ResealCounts> = {};
  for (const column of columns) report[column.name] = await resealColumn(db, column);
  return report;
}
