/**
 * Payout batches, their lines and each merchant's approval threshold (migration 0068). Merged into
 * the database's table map (`Database` in src/db/schema.ts).
 */
import type { ColumnType, Selectable } from 'kysely';
import type { DefaultedTimestamp } from '../../db/schema.ts';
import type { OrderPrice } from '../quotes/service.ts';

export const BATCH_STATUSES = ['VALIDATED', 'AWAITING_APPROVAL', 'AWAITING_FUNDING', 'PAYING', 'PAUSED', 'COMPLETED', 'CANCELLED', 'EXPIRED'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** VALID: to be paid; INVALID: refused at validation; ORDERED: its order exists; REFUSED: its order was refused when made; CANCELLED: never paid. */
export const ITEM_STATUSES = ['VALID', 'INVALID', 'ORDERED', 'REFUSED', 'CANCELLED'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export interface PayoutBatchesTable {
  id: string;
  merchant_id: string;
  status: BatchStatus;
  chain: string;
  token: string;
  item_count: number;
  valid_count: number;
  /** NUMERIC text: the valid lines' tokens, what the deposit must bring. */
  total_token: string;
  total_brl: string;
  total_net_brl: string;
  /** The valid lines' prices hold until then: a batch not funded by then expires. */
  rate_expires_at: ColumnType<Date, Date | string, Date | string>;
  /** The person who created it (a session), or null for an API key. */
  created_by_user_id: string | null;
  created_by_credential_id: string;
  /** Decided when submitted: the total above the merchant's threshold. */
  approval_required: boolean | null;
  approved_by_user_id: string | null;
  approved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  deposit_address: string | null;
  funded_amount_token: string | null;
  funded_tx_hash: string | null;
  funded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface PayoutBatchItemsTable {
  batch_id: string;
  line: number;
  status: ItemStatus;
  receiver_id: string | null;
  external_id: string | null;
  amount_token: string | null;
  /** Sealed (personal data, kind account), as orders.pix_key. */
  pix_key: string | null;
  pix_key_type: string | null;
  /** Sealed (kind name). */
  recipient_name: string | null;
  /** The valid line's price at validation: its order is made at it. */
  price: ColumnType<OrderPrice | null, string | null, string | null>;
  /** The line's refusals: field → reason. */
  errors: ColumnType<Record<string, string> | null, string | null, string | null>;
  order_id: string | null;
  updated_at: DefaultedTimestamp;
}

export interface PayoutBatchSettingsTable {
  merchant_id: string;
  /** A batch whose BRL total is above it needs a second person's approval; null: never. */
  approval_threshold_brl: string | null;
  updated_by_user_id: string;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

declare module '../../db/schema.ts' {
  interface Database {
    payout_batches: PayoutBatchesTable;
    payout_batch_items: PayoutBatchItemsTable;
    payout_batch_settings: PayoutBatchSettingsTable;
  }
}

export type PayoutBatchRow = Selectable<PayoutBatchesTable>;
export type PayoutBatchItemRow = Selectable<PayoutBatchItemsTable>;

export const BATCH_COLUMNS = [
  'id', 'merchant_id', 'status', 'chain', 'token', 'item_count', 'valid_count', 'total_token', 'total_brl', 'total_net_brl', 'rate_expires_at',
  'created_by_user_id', 'created_by_credential_id', 'approval_required', 'approved_by_user_id', 'approved_at', 'deposit_address',
  'funded_amount_token', 'funded_tx_hash', 'funded_at', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof PayoutBatchesTable>;

export const ITEM_COLUMNS = [
  'batch_id', 'line', 'status', 'receiver_id', 'external_id', 'amount_token', 'pix_key', 'pix_key_type', 'recipient_name', 'price', 'errors', 'order_id', 'updated_at',
] as const satisfies ReadonlyArray<keyof PayoutBatchItemsTable>;
