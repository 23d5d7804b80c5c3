/** The platform's own keys (migration 0022). Merged into the database's table map (`Database` in src/db/schema.ts). */
import type { Selectable } from 'kysely';
import type { DefaultedTimestamp } from '../../db/schema.ts';

export const PLATFORM_KEY_PURPOSES = ['TREASURY', 'SPONSOR'] as const;
/** TREASURY sends PAYIN tokens; SPONSOR pays managed wallets' network fees. */
export type PlatformKeyPurpose = (typeof PLATFORM_KEY_PURPOSES)[number];

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
