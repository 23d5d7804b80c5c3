/**
 * Standing PIX charges (migration 0064; docs/decisions/0045-standing-pix-charges.md). Merged into
 * the database's table map (`Database` in src/db/schema.ts).
 */
import type { ColumnType, Selectable } from 'kysely';

export type StandingChargeStatus = 'ACTIVE' | 'DISABLED';

export interface StandingPixChargesTable {
  id: string;
  merchant_id: string;
  receiver_id: string;
  /** The static code's txid (62/05): 1 to 25 alphanumerics, unique. */
  txid: string;
  /** A fixed amount, or null: the payer types it (an open code). */
  amount_brl: string | null;
  chain: string;
  token: string;
  /** The receiver's wallet when the charge was made: every PAYIN it makes sends the tokens there. */
  destination_wallet: string;
  description: string | null;
  pix_copia_e_cola: string;
  status: ColumnType<StandingChargeStatus, StandingChargeStatus | undefined, StandingChargeStatus>;
  created_at: ColumnType<Date, Date, never>;
  disabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type StandingChargeRow = Selectable<StandingPixChargesTable>;

declare module '../../db/schema.ts' {
  interface Database {
    standing_pix_charges: StandingPixChargesTable;
  }
}

export const STANDING_CHARGE_COLUMNS = [
  'id', 'merchant_id', 'receiver_id', 'txid', 'amount_brl', 'chain', 'token', 'destination_wallet', 'description', 'pix_copia_e_cola', 'status', 'created_at', 'disabled_at',
] as const satisfies ReadonlyArray<keyof StandingPixChargesTable>;
