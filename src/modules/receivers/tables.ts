/**
 * Tables of receivers and their KYC submissions, with their enumerations. Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { ColumnType, Selectable } from 'kysely';
import type { DefaultedTimestamp, Json, NullableTimestamp } from '../../db/schema.ts';

export type PersonType = 'PF' | 'PJ';

export type DocumentType = 'CPF' | 'CNPJ';

export type ReceiverStatus = 'PENDING' | 'ACTIVE' | 'SUSPENDED' | 'BLOCKED';

export type KycStatus = 'PENDING' | 'SUBMITTED' | 'UNDER_REVIEW' | 'APPROVED' | 'REJECTED';

export interface ReceiversTable {
  id: string;
  merchant_id: string;
  person_type: PersonType;
  document_type: DocumentType;
  /**
   * Normalised (bare uppercase digits/letters), then sealed at rest like name, email and phone
   * (src/lib/personal-data.ts): the repo (repo.ts) seals on write and opens on read, so every
   * other layer sees clear text.
   */
  document: string;
  /** The document's blind index (HMAC, migration 0046): uniqueness per merchant and lookups by document. */
  document_hash: ColumnType<string | null, string | null | undefined, string | null>;
  name: string;
  email: string;
  phone: string | null;
  /** The address's parts, each sealed at rest (kind `address`, sealed-columns.ts) like the name. */
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
  /** Sealed at rest (src/lib/personal-data.ts, kind `name`). */
  mother_name: string | null;
  documents: Json<Array<{ type: string; reference: string }>>;
  previous_rejection_reason: string | null;
  submitted_at: DefaultedTimestamp;
}

export type ReceiverRow = Selectable<ReceiversTable>;

declare module '../../db/schema.ts' {
  interface Database {
    receivers: ReceiversTable;
    receiver_kyc_submissions: ReceiverKycSubmissionsTable;
  }
}

/** Every column of `receivers`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const RECEIVER_COLUMNS = ['id', 'merchant_id', 'person_type', 'document_type', 'document', 'document_hash', 'name', 'email', 'phone', 'address_street', 'address_number', 'address_complement', 'address_neighborhood', 'address_city', 'address_state', 'address_zip_code', 'status', 'kyc_status', 'kyc_rejection_reason', 'kyc_submitted_at', 'kyc_reviewed_at', 'wallet_address', 'managed_wallet_requested', 'daily_limit_brl', 'daily_transaction_limit', 'night_transactions_enabled', 'created_at', 'updated_at'] as const satisfies ReadonlyArray<keyof ReceiversTable>;
