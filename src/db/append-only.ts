/**
 * Append-only tables (the ledger, the audit log, the operations register): the database itself
 * refuses every UPDATE, DELETE and TRUNCATE, whoever the caller is, so no code path can ever be
 * added that edits history. One trigger function does it for every such table,
 * `append_only_refuse_change()`, created by migration 0049 (which replaced the three copies of
 * 0007, 0033 and 0041); a new migration makes a table append-only with `appendOnly(db, table)`
 * and never writes a trigger function of its own.
 *
 * The function's body lives in migration 0049, not here: a migration that has landed never
 * changes, and a body read from here would change every past migration with it. What is here is
 * only the naming of the two triggers, which `appendOnly` and `dropAppendOnly` must agree on.
 */
import { type Kysely, sql } from 'kysely';

export const APPEND_ONLY_FUNCTION = 'append_only_refuse_change';

const rowTrigger = (table: string) => sql.raw(`${table}_append_only`);
const truncateTrigger = (table: string) => sql.raw(`${table}_append_only_truncate`);

/**
 * Makes `table` append-only. `resealable`: columns the personal-data sealing pass may rewrite (and
 * nothing else, in a transaction that sets `app.personal_data_reseal`), for a table that copies
 * personal data sealed under the KEK (the operations register, decision 0026).
 */
export async function appendOnly(db: Kysely<unknown>, table: string, options: { resealable?: readonly string[] } = {}): Promise<void> {
  const resealable = options.resealable ?? [];
  const columns = resealable.length === 0 ? sql`` : sql.join(resealable.map((column) => sql.lit(column)));
  await sql`create trigger ${rowTrigger(table)} before update or delete on ${sql.table(table)}
    for each row execute function ${sql.raw(APPEND_ONLY_FUNCTION)}(${columns})`.execute(db);
  await sql`create trigger ${truncateTrigger(table)} before truncate on ${sql.table(table)}
    for each statement execute function ${sql.raw(APPEND_ONLY_FUNCTION)}()`.execute(db);
}

/** Undoes `appendOnly` (a migration's `down`). */
export async function dropAppendOnly(db: Kysely<unknown>, table: string): Promise<void> {
  await sql`drop trigger ${truncateTrigger(table)} on ${sql.table(table)}`.execute(db);
  await sql`drop trigger ${rowTrigger(table)} on ${sql.table(table)}`.execute(db);
}
