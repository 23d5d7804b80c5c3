/**
 * API credentials: a public key id (`mk_...`, sent as x-api-key) and a secret (`sk_...`, sent as
 * x-api-secret). The secret carries 256 random bits, so a fast keyed hash is enough to store it:
 * no dictionary attack can reach it, and a slow KDF would cost every request. The HMAC key
 * (pepper) lives outside the database, so a stolen table alone cannot verify guesses.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PATTERN = /^mk_[0-9a-f]{32}$/;
const API_SECRET_PATTERN = /^sk_[A-Za-z0-9_-]{43}$/;

export interface GeneratedCredential {
  apiKey: string;
  apiSecret: string;
  secretHash: string;
}

export function generateCredential(pepper: string): GeneratedCredential {
  const apiKey = `mk_${randomBytes(16).toString('hex')}`;
  const apiSecret = `sk_${randomBytes(32).toString('base64url')}`;
  return { apiKey, apiSecret, secretHash: hashSecret(pepper, apiSecret) };
}

export function hashSecret(pepper: string, secret: string): string {
  return createHmac('sha256', pepper).update(secret).digest('hex');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(pepper: string, presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(hashSecret(pepper, presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presentedHash.length === stored.length && timingSafeEqual(presentedHash, stored) && API_SECRET_PATTERN.test(presented);
}
