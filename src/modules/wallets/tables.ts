/**
 * Managed wallets and the audit log of every sign request. Merged into the database's table map
 * (`Database` in src/db/schema.ts).
 */
import type { ColumnType, Selectable } from 'kysely';
import type { DefaultedTimestamp } from '../../db/schema.ts';

export interface ManagedWalletsTable {
  id: string;
  merchant_id: string;
  /** Null for the merchant's own wallet. */
  receiver_id: string | null;
  /** The Ed25519 public key, base58 (a Solana address). */
  address: string;
  /** AES-256-GCM of the 32-byte seed under the KEK of key_version (src/lib/key-vault.ts). */
  encrypted_private_key: string;
  key_version: number;
  created_at: DefaultedTimestamp;
}

export type SignOperation = 'SIGN' | 'SIGN_AND_SEND';
export type SignOutcome = 'SIGNED' | 'SENT' | 'REJECTED' | 'FAILED';

export interface WalletSignRequestsTable {
  id: string;
  merchant_id: string;
  receiver_id: string | null;
  wallet_address: string | null;
  operation: SignOperation;
  outcome: SignOutcome;
  reason: string | null;
  message: string | null;
  signature: string | null;
  fee_lamports: number | null;
  request_id: string | null;
  created_at: DefaultedTimestamp;
}

/** Fees reserved per merchant and São Paulo day by sign-and-send requests (the sponsor's daily budget). */
export interface SponsorDailyUsageTable {
  merchant_id: string;
  /** 'YYYY-MM-DD', São Paulo calendar day. */
  day: ColumnType<string, string, string>;
  /** bigint: text as node-postgres reads it. */
  used_lamports: ColumnType<string, string, string>;
}

export type ManagedWalletRow = Selectable<ManagedWalletsTable>;

declare module '../../db/schema.ts' {
  interface Database {
    managed_wallets: ManagedWalletsTable;
    wallet_sign_requests: WalletSignRequestsTable;
    sponsor_daily_usage: SponsorDailyUsageTable;
  }
}
