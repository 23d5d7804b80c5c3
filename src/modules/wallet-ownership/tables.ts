/**
 * Wallet ownership challenges and proofs (migration 0039, docs/architecture/compliance-policies.md).
 * Merged into the database's table map (`Database` in src/db/schema.ts).
 */
import type { NullableTimestamp } from '../../db/schema.ts';

export interface WalletOwnershipChallengesTable {
  id: string;
  merchant_id: string;
  receiver_id: string;
  wallet_address: string;
  /** The SIWS message the wallet signs, exactly as it must be signed. */
  message: string;
  created_at: Date;
  expires_at: Date;
  /** Set once, by the proof that used it (a guarded update: single use under any concurrency). */
  used_at: NullableTimestamp;
}

export type WalletOwnershipMethod = 'SIWS_ED25519';

export interface WalletOwnershipProofsTable {
  id: string;
  merchant_id: string;
  receiver_id: string;
  wallet_address: string;
  method: WalletOwnershipMethod;
  challenge_id: string;
  message: string;
  /** base58, 64 bytes. */
  signature: string;
  proven_at: Date;
}

declare module '../../db/schema.ts' {
  interface Database {
    wallet_ownership_challenges: WalletOwnershipChallengesTable;
    wallet_ownership_proofs: WalletOwnershipProofsTable;
  }
}

/** Every column of `wallet_ownership_challenges`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const CHALLENGE_COLUMNS = ['id', 'merchant_id', 'receiver_id', 'wallet_address', 'message', 'created_at', 'expires_at', 'used_at'] as const satisfies ReadonlyArray<keyof WalletOwnershipChallengesTable>;

/** Every column of `wallet_ownership_proofs`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const PROOF_COLUMNS = ['id', 'merchant_id', 'receiver_id', 'wallet_address', 'method', 'challenge_id', 'message', 'signature', 'proven_at'] as const satisfies ReadonlyArray<keyof WalletOwnershipProofsTable>;
