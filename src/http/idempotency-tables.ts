/**
 * The table of Idempotency-Keys (src/http/idempotency.ts). Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { ColumnType, Selectable } from 'kysely';
import type { NullableTimestamp } from '../db/schema.ts';

export type IdempotencyKeyState = 'IN_PROGRESS' | 'COMPLETED';

/** One Idempotency-Key of one merchant (src/http/idempotency.ts). Timestamps come from the app's clock. */
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
  /** When the current holder took the row; after the lease a retry may take it over. */
  locked_at: ColumnType<Date, Date | string, Date | string>;
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

declare module '../db/schema.ts' {
  interface Database {
    idempotency_keys: IdempotencyKeysTable;
  }
}
