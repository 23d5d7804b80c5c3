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

export type StandingDepositStatus = 'PENDING' | 'ORDERED' | 'HELD_BELOW_MINIMUM' | 'HELD_OVER_LIMIT';

/** A deposit credited to a standing address, once by signature (decision 0046). */
export interface StandingAddressDepositsTable {
  signature: string;
  standing_address_id: string;
  merchant_id: string;
  token: string;
  amount_token: string;
  status: StandingDepositStatus;
  /** Why held: the refusal's code and message. */
  hold_reason: string | null;
  order_id: string | null;
  detected_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

/** Every column of a standing address's deposit (none secret), named for the statements that read them. */
export const STANDING_DEPOSIT_COLUMNS = ['signature', 'standing_address_id', 'merchant_id', 'token', 'amount_token', 'status', 'hold_reason', 'order_id', 'detected_at', 'updated_at'] as const satisfies ReadonlyArray<keyof StandingAddressDepositsTable>;
export type StandingAddressDepositRow = Selectable<StandingAddressDepositsTable>;

declare module '../../db/schema.ts' {
  interface Database {
    standing_deposit_addresses: StandingDepositAddressesTable;
    standing_address_deposits: StandingAddressDepositsTable;
  }
}

export const STANDING_ADDRESS_COLUMNS = [
  'id', 'merchant_id', 'receiver_id', 'chain', 'token', 'deposit_address', 'pix_key', 'pix_key_type', 'recipient_name', 'description', 'status', 'created_at', 'disabled_at',
] as const satisfies ReadonlyArray<keyof StandingDepositAddressesTable>;

/** The key's reference in `deposit_addresses`. */
export const standingReference = (id: string): string => `standing:${id}`;
