/** The platform's own keys (migration 0022). Merged into the database's table map (`Database` in src/db/schema.ts). */
import type { Selectable } from 'kysely';
import type { DefaultedTimestamp } from '../../db/schema.ts';

export const PLATFORM_KEY_PURPOSES = ['TREASURY', 'SPONSOR'] as const;
/** The most treasury hot wallets (CHAIN_TREASURY_WALLETS, decision 0057). */
export const MAX_TREASURY_WALLETS = 8;
/** Treasury wallet n > 1's key (migration 0079). */
export type TreasuryWalletPurpose = `TREASURY_${2 | 3 | 4 | 5 | 6 | 7 | 8}`;
/** TREASURY (wallet 1) and TREASURY_n send PAYIN tokens; SPONSOR pays managed wallets' network fees. */
export type PlatformKeyPurpose = (typeof PLATFORM_KEY_PURPOSES)[number] | TreasuryWalletPurpose;

/** The key of treasury wallet `wallet` (1 to MAX_TREASURY_WALLETS). */
export function treasuryWalletPurpose(wallet: number): 'TREASURY' | TreasuryWalletPurpose {
  if (!Number.isInteger(wallet) || wallet < 1 || wallet > MAX_TREASURY_WALLETS) throw new Error(`treasury wallet ${wallet}: wallets are 1 to ${MAX_TREASURY_WALLETS}`);
  return wallet === 1 ? 'TREASURY' : (`TREASURY_${wallet}` as TreasuryWalletPurpose);
}

export interface PlatformKeysTable {
  purpose: PlatformKeyPurpose;
  /** The Ed25519 public key, base58 (a Solana address). */
  address: string;
  /** AES-256-GCM of the 32-byte seed under the KEK of key_version, the purpose as owner (src/lib/key-vault.ts). */
  encrypted_private_key: string;
  key_version: number;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export type PlatformKeyRow = Selectable<PlatformKeysTable>;

declare module '../../db/schema.ts' {
  interface Database {
    platform_keys: PlatformKeysTable;
  }
}
