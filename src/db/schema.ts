/**
 * Table types for Kysely. Column names are snake_case in SQL and here; the repos map rows to
 * the API's camelCase shapes so a column can never leak into a response by accident.
 */
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/** timestamptz: read as Date, written as Date or ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** timestamptz with a database default (now()). */
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: read parsed, written as a JSON string so both drivers send the same text. */
type Json<T> = ColumnType<T, string, string>;

export type MerchantStatus = 'ACTIVE' | 'DISABLED';

export interface MerchantsTable {
  id: string;
  name: string;
  status: MerchantStatus;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ApiCredentialsTable {
  id: string;
  merchant_id: string;
  /** Public key id, e.g. mk_..., sent as x-api-key. */
  key_id: string;
  /** HMAC-SHA256 of the secret under the pepper, hex. The secret itself is never stored. */
  secret_hash: string;
  created_at: DefaultedTimestamp;
  revoked_at: Timestamp | null;
}

export interface EventsTable {
  id: string;
  merchant_id: string;
  event_type: string;
  /** The flat payload of the spec, without deliveryId (assigned per delivery). */
  payload: Json<Record<string, unknown>>;
  created_at: DefaultedTimestamp;
}

export interface AdminAuditLogTable {
  id: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string | null;
  details: Json<Record<string, unknown>>;
  request_id: string | null;
  created_at: DefaultedTimestamp;
}

export interface Database {
  merchants: MerchantsTable;
  api_credentials: ApiCredentialsTable;
  events: EventsTable;
  admin_audit_log: AdminAuditLogTable;
}

export type MerchantRow = Selectable<MerchantsTable>;
export type NewMerchant = Insertable<MerchantsTable>;
export type MerchantUpdate = Updateable<MerchantsTable>;
export type ApiCredentialRow = Selectable<ApiCredentialsTable>;
export type EventRow = Selectable<EventsTable>;
