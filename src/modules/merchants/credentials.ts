/**
 * API credentials: a public key id (`mk_...`, sent as x-api-key) and a secret (`sk_...`, sent as
 * x-api-secret). The secret carries 256 random bits, so a fast hash is enough to store it: no
 * dictionary attack can reach it, and a slow KDF would cost every request.
 *
 * Stored as `s1:` + AES-256-GCM(SHA-256(secret)) under a key derived from API_SECRET_PEPPER, the
 * key id as associated data (docs/decisions/0025-single-use-totp-uniform-sign-in-failures-rotating-secrets.md).
 * The key lives outside the database, so a stolen table alone cannot verify guesses, as with the
 * HMAC it replaces; unlike an HMAC of the secret, a sealed digest can be re-sealed under a new
 * pepper without the secret, which we never hold: `rotate-secrets` does so, and a verification
 * tries the current pepper, then API_SECRET_PEPPER_PREVIOUS. Rows of the older form
 * (hex HMAC-SHA256(pepper, secret)) still verify, and are re-sealed at their next successful use.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createRotatingBox, type MasterKeys, masterKeysOf } from '../../lib/rotating-box.ts';

export const API_KEY_PATTERN = /^mk_[0-9a-f]{32}$/;
const API_SECRET_PATTERN = /^sk_[A-Za-z0-9_-]{43}$/;
const SEALED_PREFIX = 's1:';
const LEGACY_PATTERN = /^[0-9a-f]{64}$/;
const OPENED_CACHE_MAX = 10_000;

export interface GeneratedCredential {
  apiKey: string;
  apiSecret: string;
  secretHash: string;
}

/** What a presented secret is against a stored hash: a match, and whether the stored form should be re-sealed (older pepper or form). */
export interface SecretCheck {
  matches: boolean;
  stale: boolean;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();

export function createSecretHasher(pepper: string | MasterKeys) {
  const keys = masterKeysOf(pepper);
  const box = createRotatingBox(keys, 'api-secret-digests');
  const legacyOf = (key: string, secret: string) => createHmac('sha256', key).update(secret).digest();
  const seal = (apiKey: string, secret: string) => SEALED_PREFIX + box.seal(sha256(secret), apiKey);
  const equal = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
  // Opened digests by stored value and key id: a request then costs a SHA-256, as the HMAC did,
  // not an AES-GCM open too (3x the time). A digest is no credential (the service hashes what it
  // is sent), so holding it in memory is holding the HMAC was. Bounded: emptied when full.
  const opened = new Map<string, { plaintext: Buffer; current: boolean }>();
  function openSealed(stored: string, apiKey: string) {
    const cacheKey = `${apiKey}\n${stored}`;
    let digest = opened.get(cacheKey);
    if (!digest) {
      digest = box.openWithVersion(stored.slice(SEALED_PREFIX.length), apiKey);
      if (opened.size >= OPENED_CACHE_MAX) opened.clear();
      opened.set(cacheKey, digest);
    }
    return digest;
  }

  function check(apiKey: string, presented: string, stored: string): SecretCheck {
    const digest = sha256(presented);
    let matches = false;
    let stale = false;
    if (stored.startsWith(SEALED_PREFIX)) {
      try {
        const sealed = openSealed(stored, apiKey);
        matches = equal(sealed.plaintext, digest);
        stale = !sealed.current;
      } catch {
        matches = false;
      }
    } else if (LEGACY_PATTERN.test(stored)) {
      const hash = Buffer.from(stored, 'hex');
      matches = equal(legacyOf(keys.current, presented), hash) || (keys.previous !== undefined && equal(legacyOf(keys.previous, presented), hash));
      stale = true;
    }
    return { matches: matches && API_SECRET_PATTERN.test(presented), stale };
  }

  return {
    generate(): GeneratedCredential {
      const apiKey = `mk_${randomBytes(16).toString('hex')}`;
      const apiSecret = `sk_${randomBytes(32).toString('base64url')}`;
      return { apiKey, apiSecret, secretHash: seal(apiKey, apiSecret) };
    },
    /** The stored form of `secret` under the current pepper. */
    seal,
    /** Constant-time check of a presented secret against a stored hash of any form. */
    check,
    /**
     * The stored hash re-sealed under the current pepper without the secret; undefined when it is
     * current; 'unsealable' for the older HMAC form, which only its secret re-seals (at next use).
     * Throws when neither pepper opens it.
     */
    reseal(apiKey: string, stored: string): string | undefined | 'unsealable' {
      if (!stored.startsWith(SEALED_PREFIX)) return 'unsealable';
      const opened = box.openWithVersion(stored.slice(SEALED_PREFIX.length), apiKey);
      return opened.current ? undefined : SEALED_PREFIX + box.seal(opened.plaintext, apiKey);
    },
  };
}

export type SecretHasher = ReturnType<typeof createSecretHasher>;
