/**
 * Standing deposit addresses (migration 0070; docs/decisions/0046-standing-addresses-hold-over-limit-deposits.md).
 * Merged into the database's table map (`Database` in src/db/schema.ts).
 */
import type { ColumnType, Selectable } from 'kysely';

export type StandingAddressStatus = 'ACTIVE' | 'DISABLED';

export interface StandingDepositAddressesTable {
  id: string;
  merchant_id: string;
  receiver_id: string;
  chain: string;
  /** The token a deposit must be to be credited. */
  token: string;
  /** The owner address senders pay (its key: `deposit_addresses` reference `standing:<id>`). */
  deposit_address: string;
  /** The receiver's PIX key every deposit's PAYOUT pays, checked under the destination policy when made. */
  pix_key: string;
  pix_key_type: string;
  recipient_name: string;
  description: string | null;
  status: ColumnType<StandingAddressStatus, StandingAddressStatus | undefined, StandingAddressStatus>;
  created_at: ColumnType<Date, Date, never>;
  disabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type StandingAddressRow = Selectable<StandingDepositAddressesTable>;

declare module '../../db/schema.ts' {
  interface Database {
    standing_deposit_addresses: StandingDepositAddressesTable;
  }
}

export const STANDING_ADDRESS_COLUMNS = [
  'id', 'merchant_id', 'receiver_id', 'chain', 'token', 'deposit_address', 'pix_key', 'pix_key_type', 'recipient_name', 'description', 'status', 'created_at', 'disabled_at',
] as const satisfies ReadonlyArray<keyof StandingDepositAddressesTable>;

/** The key's reference in `deposit_addresses`. */
export const standingReference = (id: string): string => `standing:${id}`;
