/**
 * Tables of the double-entry ledger and settlements. Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { ColumnType } from 'kysely';
import type { DefaultedTimestamp } from '../../db/schema.ts';

export interface LedgerAccountsTable {
  id: string;
  code: string;
  merchant_id: string | null;
  currency: string;
  /** token_treasury's treasury wallet (migration 0079, decision 0057); null for every other account. */
  wallet: ColumnType<number | null, number | null | undefined, never>;
  created_at: DefaultedTimestamp;
}

export interface LedgerEntriesTable {
  id: string;
  /** null for the platform's own movements (a treasury funding, migration 0024). */
  merchant_id: string | null;
  kind: string;
  /** `wallet_sign_request`: a sponsored fee, referencing its wallet_sign_requests row. */
  reference_type: 'order' | 'settlement' | 'entry' | 'wallet_sign_request' | 'treasury_funding' | 'treasury_withdrawal' | 'dispute' | 'payout_batch' | 'lookup_table_extension';
  reference_id: string;
  created_at: ColumnType<Date, Date | string, never>;
}

export interface LedgerPostingsTable {
  id: string;
  entry_id: string;
  account_id: string;
  currency: string;
  /** Debits positive, credits negative; NUMERIC text. */
  amount: string;
}

export interface SettlementsTable {
  id: string;
  merchant_id: string;
  period_start: ColumnType<Date, Date | string, never>;
  period_end: ColumnType<Date, Date | string, never>;
  amount_brl: string;
  /** Of the fees closed, the partner markup (migration 0061): settled with the fees, shown apart. */
  markup_brl: ColumnType<string, string | undefined, never>;
  entries_count: number;
  created_at: ColumnType<Date, Date | string, never>;
  /**
   * The payment by PIX (migration 0063, docs/decisions/0044): AWAITING_PIX_KEY (the merchant has
   * no approved key), PENDING (due to send), SENDING (the PSP idempotency key stored, the call made
   * or to repeat), SENT (the PSP took it), PAID (confirmed: endToEndId and paid_at), FAILED (refused:
   * still owed, sent again under the next attempt when a key is approved).
   */
  payout_status: ColumnType<SettlementPayoutStatus, SettlementPayoutStatus | undefined, SettlementPayoutStatus>;
  /** The settlement_pix_keys row it is paid to, fixed when it starts SENDING. */
  payout_key_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Sends refused so far; the PSP idempotency key of attempt n > 0 is `<key>R<n>`. */
  payout_attempt: ColumnType<number, number | undefined, number>;
  payout_idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
  provider_transaction_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The PIX reference: the PSP's endToEndId, once PAID. */
  pix_end_to_end_id: ColumnType<string | null, string | null | undefined, string | null>;
  paid_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  payout_failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the worker's next payout step is due; null: nothing to do (waiting for a key, or ended). */
  payout_next_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  payout_step_attempts: ColumnType<number, number | undefined, number>;
}

export const SETTLEMENT_PAYOUT_STATUSES = ['AWAITING_PIX_KEY', 'PENDING', 'SENDING', 'SENT', 'PAID', 'FAILED'] as const;
export type SettlementPayoutStatus = (typeof SETTLEMENT_PAYOUT_STATUSES)[number];

export interface SettledEntriesTable {
  entry_id: string;
  settlement_id: string;
}

declare module '../../db/schema.ts' {
  interface Database {
    ledger_accounts: LedgerAccountsTable;
    ledger_entries: LedgerEntriesTable;
    ledger_postings: LedgerPostingsTable;
    settlements: SettlementsTable;
    settled_entries: SettledEntriesTable;
  }
}

/** Every column of `settlements`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const SETTLEMENT_COLUMNS = [
  'id',
  'merchant_id',
  'period_start',
  'period_end',
  'amount_brl',
  'markup_brl',
  'entries_count',
  'created_at',
  'payout_status',
  'pix_end_to_end_id',
  'paid_at',
  'payout_failure_reason',
] as const satisfies ReadonlyArray<keyof SettlementsTable>;
