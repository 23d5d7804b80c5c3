/**
 * Credentials as authentication reads them, kept in process memory so an authenticated request
 * makes no database round trip. Staleness is bounded: an entry lives `ttlMs` (5 s by default),
 * and a revocation or a merchant disabled drops the entries at once in every process: this one
 * directly, the others through the notifications hub (merchants/credential-revocations.ts, LISTEN/
 * NOTIFY on PostgreSQL). The TTL remains the bound only while a process's LISTEN connection is
 * down, and the hub's resync clears the cache when it comes back.
 */
import type { BlockList } from 'node:net';

export interface CachedCredential {
  id: string;
  keyId: string;
  merchantId: string;
  secretHash: string;
  revoked: boolean;
  merchantActive: boolean;
  /** Epoch ms after which the key is refused as unknown; null never. */
  expiresAtMs: number | null;
  /** Built once per read (ip-allow-list.ts); null allows any address. */
  allowList: BlockList | null;
  /** null is full access (scopes.ts). */
  scopes: readonly string[] | null;
  /** The merchant as GET /merchant shows it, read by the same query. */
  merchant: { name: string; status: 'ACTIVE' | 'DISABLED'; createdAt: string };
}

/** Bounds memory: unknown keys are cached too (so a wrong key costs what a known one does), and a caller could send many. */
const MAX_ENTRIES = 50_000;

export function createCredentialCache(options: { ttlMs: number; now?: () => number }) {
  const now = options.now ?? (() => performance.now());
  const byKey = new Map<string, { credential: CachedCredential | null; expiresAt: number }>();
  const keyOfId = new Map<string, string>();
  const keyOfMerchant = new Map<string, string>();

  // Bumped by every forget: a read that started before it must not be remembered after it
  // (it may have seen the row before the revocation committed).
  let generation = 0;
  // A clock that went back (a wall clock corrected) must not stretch an entry's life past its TTL.
  const fresh = (entry: { credential: CachedCredential | null; expiresAt: number } | undefined) => {
    const at = now();
    return entry && entry.expiresAt > at && entry.expiresAt - options.ttlMs <= at ? entry.credential : undefined;
  };

  function store(keyId: string, credential: CachedCredential | null, readAt: number): void {
    if (options.ttlMs <= 0 || readAt !== generation) return;
    if (byKey.size >= MAX_ENTRIES) {
      byKey.clear();
      keyOfId.clear();
      keyOfMerchant.clear();
    }
    byKey.set(keyId, { credential, expiresAt: now() + options.ttlMs });
    if (credential) {
      keyOfId.set(credential.id, keyId);
      keyOfMerchant.set(credential.merchantId, keyId);
    }
  }

  return {
    /** Taken before a database read; `remember` stores the result only if nothing was forgotten since. */
    generation: () => generation,

    /** A credential, `null` for a key id known not to exist, undefined when not cached. */
    byKey: (keyId: string) => fresh(byKey.get(keyId)),

    byId(credentialId: string): CachedCredential | undefined {
      const keyId = keyOfId.get(credentialId);
      return (keyId === undefined ? undefined : fresh(byKey.get(keyId))) ?? undefined;
    },

    /** The merchant as a fresh entry of one of its credentials saw it. */
    merchant(merchantId: string) {
      const keyId = keyOfMerchant.get(merchantId);
      const credential = keyId === undefined ? undefined : fresh(byKey.get(keyId));
      return credential && credential.merchantId === merchantId ? credential.merchant : undefined;
    },

    remember: (credential: CachedCredential, readAt: number) => store(credential.keyId, credential, readAt),

    rememberAbsent: (keyId: string, readAt: number) => store(keyId, null, readAt),

    forgetCredential(credentialId: string): void {
      generation++;
      const keyId = keyOfId.get(credentialId);
      if (keyId !== undefined) byKey.delete(keyId);
      keyOfId.delete(credentialId);
    },

    /** Everything: after the notifications connection was lost (a revocation may have gone unheard). */
    forgetAll(): void {
      generation++;
      byKey.clear();
      keyOfId.clear();
      keyOfMerchant.clear();
    },

    forgetMerchant(merchantId: string): void {
      generation++;
      keyOfMerchant.delete(merchantId);
      for (const [keyId, entry] of byKey) {
        if (entry.credential?.merchantId !== merchantId) continue;
        byKey.delete(keyId);
        keyOfId.delete(entry.credential.id);
      }
    },
  };
}

export type CredentialCache = ReturnType<typeof createCredentialCache>;
