import { type Kysely, sql } from 'kysely';

/**
 * The sealing pass's marker (docs/decisions/0032-sealing-marker-kept-by-the-database.md):
 * `personal_data_sealing`, one row, says "no personal value was clear when the pass last looked,
 * with KEK version `kek_version` current, over the sealed columns `columns` names", so a start
 * whose KEK version and columns match skips the scan of every table (src/platform/personal-data-sealed-marker.ts).
 *
 * What keeps it true is the database, not the code: a trigger on each table holding sealed
 * personal data fires on a row written with a clear value in a sealed column (or a document
 * without its keyed hash), whoever writes it (an older process during a rolling deploy, a hand-made
 * INSERT), and voids the marker in that transaction, adding one to `clear_writes`. The pass sets
 * the marker only if `clear_writes` is what it read before it scanned (a compare-and-set, which
 * waits for a clear writer still open), so a clear write racing the scan is never blessed. Code
 * seals on write, so in normal running the trigger's WHEN condition is false and it costs a few
 * regex tests per insert (per update only of those columns).
 *
 * The columns are frozen here as they are at this migration: a migration that adds a sealed
 * column adds it to these triggers (test/platform/personal-data-sealed-marker.test.ts checks every
 * column of PERSONAL_DATA_TABLES voids the marker).
 */
const SEALED: Record<string, { columns: readonly string[]; hashes?: Record<string, string> }> = {
  receivers: {
    columns: ['document', 'name', 'email', 'phone', 'address_street', 'address_number', 'address_complement', 'address_neighborhood', 'address_city', 'address_state', 'address_zip_code'],
    hashes: { document_hash: 'document' },
  },
  receiver_kyc_submissions: { columns: ['mother_name'] },
  operations_register: {
    columns: ['client_document', 'client_name', 'originator_name', 'originator_document', 'beneficiary_name', 'beneficiary_document', 'originator_account', 'beneficiary_account'],
  },
  orders: { columns: ['payer_document', 'payer_name', 'pix_key', 'recipient_name'] },
};

/** Personal values inside a jsonb column, by key (the outbox's events: src/platform/event-payload-sealing.ts). */
const SEALED_JSON: Record<string, { column: string; keys: readonly string[] }> = {
  events: { column: 'payload', keys: ['pixKey', 'name', 'email'] },
};

const FUNCTION = 'personal_data_clear_write';
const triggerOf = (table: string) => sql.raw(`${table}_personal_data_clear`);

/** A string under one of the keys that is not sealed (resealJsonValues's onlyClear predicate), as a WHEN condition. */
function clearJsonCondition(spec: (typeof SEALED_JSON)[string]) {
  const value = (key: string) => `(jsonb_typeof(new.${spec.column} -> '${key}') = 'string' and new.${spec.column} ->> '${key}' !~ '^pd[0-9]+:')`;
  return sql.raw(spec.keys.map(value).join(' or '));
}

/** The rows the sealing pass would change with onlyClear (personal-data-rotation.ts's stalePredicate), as a WHEN condition. */
function clearCondition(spec: (typeof SEALED)[string]) {
  const value = (column: string) => `(new.${column} is not null and new.${column} !~ '^pd[0-9]+:')`;
  const hash = ([column, of]: [string, string]) => `(new.${of} is not null and (new.${column} is null or new.${column} !~ '^[0-9]+:'))`;
  return sql.raw([...spec.columns.map(value), ...Object.entries(spec.hashes ?? {}).map(hash)].join(' or '));
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table personal_data_sealing (
      id boolean primary key default true check (id),
      clear_writes bigint not null default 0,
      kek_version integer,
      columns text,
      sealed_at timestamptz
    )`.execute(db);
  await sql`insert into personal_data_sealing default values`.execute(db);
  await sql`
    create function ${sql.raw(FUNCTION)}() returns trigger language plpgsql as $$
    begin
      update personal_data_sealing set clear_writes = clear_writes + 1, kek_version = null, columns = null, sealed_at = null;
      return null;
    end $$`.execute(db);
  for (const [table, spec] of Object.entries(SEALED)) {
    const watched = sql.raw([...spec.columns, ...Object.keys(spec.hashes ?? {})].join(', '));
    await sql`create trigger ${triggerOf(table)} after insert or update of ${watched} on ${sql.table(table)}
      for each row when (${clearCondition(spec)}) execute function ${sql.raw(FUNCTION)}()`.execute(db);
  }
  for (const [table, spec] of Object.entries(SEALED_JSON)) {
    await sql`create trigger ${triggerOf(table)} after insert or update of ${sql.raw(spec.column)} on ${sql.table(table)}
      for each row when (${clearJsonCondition(spec)}) execute function ${sql.raw(FUNCTION)}()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...Object.keys(SEALED), ...Object.keys(SEALED_JSON)]) await sql`drop trigger ${triggerOf(table)} on ${sql.table(table)}`.execute(db);
  await sql`drop function ${sql.raw(FUNCTION)}()`.execute(db);
  await sql`drop table personal_data_sealing`.execute(db);
}
