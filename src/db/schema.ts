/**
 * Table types for Kysely. Column names are snake_case in SQL and here; the repos map rows to
 * the API's camelCase shapes so a column can never leak into a response by accident.
 */
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/** Nullable timestamptz: read as Date or null, written as Date or ISO string. */
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
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
  revoked_at: NullableTimestamp;
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
  receivers: ReceiversTable;
  receiver_kyc_submissions: ReceiverKycSubmissionsTable;
  platform_fee_tiers: PlatformFeeTiersTable;
  merchant_fee_tiers: MerchantFeeTiersTable;
}

export type MerchantRow = Selectable<MerchantsTable>;
export type NewMerchant = Insertable<MerchantsTable>;
export type MerchantUpdate = Updateable<MerchantsTable>;
export type ApiCredentialRow = Selectable<ApiCredentialsTable>;
export type EventRow = Selectable<EventsTable>;

export type PersonType = 'PF' | 'PJ';
export type DocumentType = 'CPF' | 'CNPJ';
export type ReceiverStatus = 'PENDING' | 'ACTIVE' | 'SUSPENDED' | 'BLOCKED';
export type KycStatus = 'PENDING' | 'SUBMITTED' | 'UNDER_REVIEW' | 'APPROVED' | 'REJECTED';
export type OrderType = 'PAYIN' | 'PAYOUT';

export interface ReceiversTable {
  id: string;
  merchant_id: string;
  person_type: PersonType;
  document_type: DocumentType;
  /** Normalised: bare uppercase digits/letters. */
  document: string;
  name: string;
  email: string;
  phone: string | null;
  address_street: string | null;
  address_number: string | null;
  address_complement: string | null;
  address_neighborhood: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zip_code: string | null;
  status: ColumnType<ReceiverStatus, ReceiverStatus | undefined, ReceiverStatus>;
  kyc_status: ColumnType<KycStatus, KycStatus | undefined, KycStatus>;
  kyc_rejection_reason: string | null;
  kyc_submitted_at: NullableTimestamp;
  kyc_reviewed_at: NullableTimestamp;
  wallet_address: string | null;
  managed_wallet_requested: ColumnType<boolean, boolean | undefined, boolean>;
  /** NUMERIC: a decimal string, never a float. */
  daily_limit_brl: string | null;
  daily_transaction_limit: number | null;
  night_transactions_enabled: boolean;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ReceiverKycSubmissionsTable {
  id: string;
  receiver_id: string;
  /** DATE as 'YYYY-MM-DD' text (parsed as text on both drivers: no time zone shifts). */
  birth_date: string | null;
  incorporation_date: string | null;
  mother_name: string | null;
  documents: Json<Array<{ type: string; reference: string }>>;
  previous_rejection_reason: string | null;
  submitted_at: DefaultedTimestamp;
}

export interface PlatformFeeTiersTable {
  id: string;
  order_type: OrderType;
  min_volume_brl: string;
  max_volume_brl: string | null;
  platform_fee_percentage: string;
}

export interface MerchantFeeTiersTable {
  id: string;
  merchant_id: string;
  order_type: OrderType;
  min_volume_brl: string;
  max_volume_brl: string | null;
  platform_fee_percentage: string;
  merchant_fee_percentage: string;
  created_at: DefaultedTimestamp;
}

export type ReceiverRow = Selectable<ReceiversTable>;
