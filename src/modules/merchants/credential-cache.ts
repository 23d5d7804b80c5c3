/**
 * Credentials as authentication reads them, kept in process memory so an authenticated request
 * makes no database round trip. Staleness is bounded: an entry lives `ttlMs` (5 s by default),
 * and this process drops a credential or a merchant's entries at once when it revokes or
 * disables them itself; another process sees the change within the TTL.
 */
export interface CachedCredential {
  id: string;
  keyId: string;
  merchantId: string;
  secretHash: string;
  revoked: boolean;
  merchantActive: boolean;
  /** The merchant as GET /merchant shows it, read by the same query. */
  merchant: { name: string; status: 'ACTIVE' | 'DISABLED'; createdAt: string };
}

/** Unknown keys are not cached (a caller could fill memory with them); this bounds the rest. */
const MAX_ENTRIES = 50_000;

export function createCredentialCache(options: { ttlMs: number; now?: () => number }) {
  const now = options.now ?? (() => performance.now());
  const byKey = new Map<string, { credential: CachedCredential; expiresAt: number }>();
  const keyOfId = new Map<string, string>();
  const keyOfMerchant = new Map<string, string>();

  const fresh = (entry: { credential: CachedCredential; expiresAt: number } | undefined) =>
    entry && entry.expiresAt > now() ? entry.credential : undefined;

  return {
    byKey: (keyId: string) => fresh(byKey.get(keyId)),

    byId(credentialId: string) {
      const keyId = keyOfId.get(credentialId);
      return keyId === undefined ? undefined : fresh(byKey.get(keyId));
    },

    /** The merchant as a fresh entry of one of its credentials saw it. */
    merchant(merchantId: string) {
      const keyId = keyOfMerchant.get(merchantId);
      const credential = keyId === undefined ? undefined : fresh(byKey.get(keyId));
      return credential?.merchantId === merchantId ? credential.merchant : undefined;
    },

    remember(credential: CachedCredential): void {
      if (options.ttlMs <= 0) return;
      if (byKey.size >= MAX_ENTRIES) {
        byKey.clear();
        keyOfId.clear();
        keyOfMerchant.clear();
      }
      byKey.set(credential.keyId, { credential, expiresAt: now() + options.ttlMs });
      keyOfId.set(credential.id, credential.keyId);
      keyOfMerchant.set(credential.merchantId, credential.keyId);
    },

    forgetCredential(credentialId: string): void {
      const keyId = keyOfId.get(credentialId);
      if (keyId !== undefined) byKey.delete(keyId);
      keyOfId.delete(credentialId);
    },

    forgetMerchant(merchantId: string): void {
      keyOfMerchant.delete(merchantId);
      for (const [keyId, entry] of byKey) {
        if (entry.credential.merchantId !== merchantId) continue;
        byKey.delete(keyId);
        keyOfId.delete(entry.credential.id);
      }
    },
  };
}

export type CredentialCache = ReturnType<typeof createCredentialCache>;
