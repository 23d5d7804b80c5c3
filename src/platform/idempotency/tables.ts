/**
 * The tables of Idempotency-Keys (docs/architecture/idempotency.md). Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { ColumnType, Selectable } from 'kysely';
import type { NullableTimestamp } from '../../db/schema.ts';

export type IdempotencyKeyState = 'IN_PROGRESS' | 'COMPLETED';

/** One Idempotency-Key of one merchant (or of the admin key space). Timestamps come from the app's clock. */
export interface IdempotencyKeysTable {
  merchant_id: string;
  key: string;
  /** SHA-256 (hex) of method, route template, path parameters, query and canonical JSON body. */
  fingerprint: string;
  method: string;
  /** The route template, e.g. /api/v1/payin. */
  route: string;
  state: IdempotencyKeyState;
  /** Who holds the IN_PROGRESS row: completing or releasing it requires this token. */
  lock_token: string;
  /** The process holding an IN_PROGRESS row (idempotency_owners); null: given up, take it over at once. */
  owner_id: string | null;
  /** When the current holder took the row (the database's clock). */
  locked_at: ColumnType<Date, Date | string, Date | string>;
  /** What the holder recorded before an irreversible effect, for a retry to finish it. */
  effect: string | null;
  /** x-request-id of the request whose answer is stored. */
  request_id: string | null;
  response_status: number | null;
  response_content_type: string | null;
  /** The answer as sent: the serialized JSON text. */
  response_body: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  completed_at: NullableTimestamp;
}

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

/** Every column of a key, named so a column added later is read only where it is asked for (test/explicit-columns.test.ts). */
export const IDEMPOTENCY_KEY_COLUMNS = [
  'merchant_id',
  'key',
  'fingerprint',
  'method',
  'route',
  'state',
  'lock_token',
  'owner_id',
  'locked_at',
  'effect',
  'request_id',
  'response_status',
  'response_content_type',
  'response_body',
  'created_at',
  'completed_at',
] as const satisfies readonly (keyof IdempotencyKeysTable)[];

/** One live API process holding keys of held routes (owner.ts). */
export interface IdempotencyOwnersTable {
  id: string;
  heartbeat_at: ColumnType<Date, Date | string, Date | string>;
}

declare module '../../db/schema.ts' {
  interface Database {
    idempotency_keys: IdempotencyKeysTable;
    idempotency_owners: IdempotencyOwnersTable;
  }
}

