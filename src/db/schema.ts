/**
 * Table types for Kysely. Column names are snake_case in SQL and here; the repos map rows to
 * the API's camelCase shapes so a column can never leak into a response by accident.
 */
import type { ColumnType, Selectable } from 'kysely';

/** Nullable timestamptz: read as Date or null, written as Date or ISO string. */
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** timestamptz with a database default (now()). */
export type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: read parsed, written as a JSON string so both drivers send the same text. */
export type Json<T> = ColumnType<T, string, string>;

export interface EventsTable {
  id: string;
  merchant_id: string;
  event_type: string;
  /** The flat payload of the spec, without deliveryId (assigned per delivery). */
  payload: Json<Record<string, unknown>>;
  created_at: DefaultedTimestamp;
  /** Set by the webhook fan-out once the event's deliveries exist (migration 0004). */
  fanned_out_at: NullableTimestamp;
}

/**
 * The table map of the one Kysely instance. The tables of each module are declared with the
 * module (its `tables.ts` merges them in here), so the database layer imports no module.
 */
export interface Database {
  events: EventsTable;
}
export type EventRow = Selectable<EventsTable>;

// --- Sandbox PSP and chain (src/adapters/pix/sandbox.ts, src/adapters/chain/sandbox.ts) ----

