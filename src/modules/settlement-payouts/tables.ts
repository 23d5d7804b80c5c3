/**
 * Where a merchant's settlements are paid (migration 0063, docs/decisions/0044): one row per PIX
 * key an operator asked for, ACTIVE once a second operator approved it. The settlements' own
 * payment columns are the ledger's (`SettlementsTable`, src/modules/ledger/tables.ts).
 */
import type { ColumnType } from 'kysely';
import type { PixKeyType } from '../../lib/pix-keys.ts';

export type SettlementPixKeyStatus = 'PENDING' | 'ACTIVE' | 'SUPERSEDED';

export interface SettlementPixKeysTable {
  id: string;
  merchant_id: string;
  pix_key_type: PixKeyType;
  /** Sealed (personal data, kind `account`): settlement-payouts/sealed-columns.ts. */
  pix_key: string;
  /** The key holder's CPF or CNPJ, bare; sealed (kind `document`). */
  holder_document: string;
  status: ColumnType<SettlementPixKeyStatus, SettlementPixKeyStatus | undefined, SettlementPixKeyStatus>;
  requested_by: string;
  requested_at: ColumnType<Date, Date, never>;
  /** The approved SETTLEMENT_PIX_KEY proposal; null while PENDING. */
  approval_id: ColumnType<string | null, string | null | undefined, string | null>;
  activated_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

declare module '../../db/schema.ts' {
  interface Database {
    settlement_pix_keys: SettlementPixKeysTable;
  }
}
