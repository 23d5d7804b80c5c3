/**
 * Merchants and their API credentials: creation, status changes, credential issue and
 * revocation (each audited in its own transaction), and the credential checks that
 * authentication relies on.
 */
import { inTransaction, withinOrNew } from '../../platform/commit-signals.ts';
import type { IdempotentRequest } from '../../platform/idempotency/claim.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { MerchantRow, MerchantStatus } from './tables.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { API_KEY_PATTERN, createSecretHasher } from './credentials.ts';
import type { MasterKeys } from '../../lib/rotating-box.ts';
import { type CachedCredential, createCredentialCache } from './credential-cache.ts';
import { type RevocationHub, credentialRevocations } from './credential-revocations.ts';
import { merchantsRepo as repo } from './repo.ts';
import { buildAllowList, ipAllowed } from './ip-allow-list.ts';
import { createLastUseRecorder } from './last-used.ts';
import { type CredentialOptions, type CredentialRequest, credentialOptions } from './credential-options.ts';
import type { Permission } from '../users/roles.ts';
import type { Scope } from './scopes.ts';

export interface Merchant {
  id: string;
  name: string;
  status: MerchantStatus;
  createdAt: string;
}

export interface Credential {
  id: string;
  apiKey: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
  expiresAt: string | null;
  allowedIps: string[] | null;
  scopes: Scope[] | null;
  lastUsedAt: string | null;
}


/** Returned once, at issue: the only time the secret exists outside the caller's hands. */
export interface IssuedCredential extends Credential {
  apiSecret: string;
}

export type CredentialCheck =
  | { ok: true; merchantId: string; credentialId: string; scopes: readonly string[] | null }
  | { ok: false; reason: 'unknown' | 'revoked' | 'expired' | 'ip_not_allowed' | 'merchant_disabled' };

const toMerchant = (row: MerchantRow): Merchant => ({
  id: row.id,
  name: row.name,
  status: row.status,
  createdAt: row.created_at.toISOString(),
});

const toCredential = (row: {
  id: string;
  key_id: string;
  label: string | null;
  created_at: Date;
  revoked_at: Date | null;
  expires_at: Date | null;
  allowed_ips: string[] | null;
  scopes: string[] | null;
  last_used_at: Date | null;
}): Credential => ({
  id: row.id,
  apiKey: row.key_id,
  label: row.label,
  createdAt: row.created_at.toISOString(),
  revokedAt: row.revoked_at?.toISOString() ?? null,
  expiresAt: row.expires_at?.toISOString() ?? null,
  allowedIps: row.allowed_ips,
  // Written only from the validated Scope list (credential-options.ts).
  scopes: row.scopes as Scope[] | null,
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

export interface MerchantsDeps {
  db: Db;
  clock: Clock;
  /** API_SECRET_PEPPER, with its previous version while it rotates. */
  apiSecretPepper: string | MasterKeys;
  /** Other modules' set-up for a new merchant (e.g. its fee tiers), run in the creation transaction. */
  onMerchantCreated?: Array<(trx: Trx, merchantId: string) => Promise<void>>;
  /** How long authentication may use a credential read earlier (another process's revocation or disable shows within it); 0 reads every time. */
  credentialCacheTtlMs?: number;
  /** How often one process writes a key's lastUsedAt at most (60 s by default). */
  lastUseIntervalMs?: number;
  /**
   * Revocations and merchant status changes reach every process's cache through it
   * (credential-revocations.ts), once the composition root forwards this database's commit signals to it.
   */
  notifications: RevocationHub;
}

const DEFAULT_CREDENTIAL_CACHE_TTL_MS = 5_000;

export function createMerchantsService(deps: MerchantsDeps) {
  const { db, clock, apiSecretPepper } = deps;
  const hasher = createSecretHasher(apiSecretPepper);
  // Checking against a dummy sealed secret for unknown keys keeps their timing close to that of known keys.
  const unknownKeyHash = hasher.seal('mk_unknown', 'unknown');
  // The TTL runs on the service's clock, as key expiry does: a test moves it instead of sleeping.
  const cache = createCredentialCache({ ttlMs: deps.credentialCacheTtlMs ?? DEFAULT_CREDENTIAL_CACHE_TTL_MS, now: () => clock.now().getTime() });
  const revocations = credentialRevocations(deps.notifications, cache);
  const lastUse = createLastUseRecorder({ db, clock, ...(deps.lastUseIntervalMs === undefined ? {} : { intervalMs: deps.lastUseIntervalMs }) });

  /**
   * The restrictions of a live credential, in the order that reveals least: expiry first (401 as
   * if unknown), then the caller's address (403). Unrestricted keys pay two null checks.
   */
  function admit(credential: CachedCredential, ip: string | undefined): CredentialCheck {
    if (credential.expiresAtMs !== null && clock.now().getTime() >= credential.expiresAtMs) return { ok: false, reason: 'expired' };
    if (!credential.merchantActive) return { ok: false, reason: 'merchant_disabled' };
    if (credential.allowList !== null && (ip === undefined || !ipAllowed(credential.allowList, ip))) return { ok: false, reason: 'ip_not_allowed' };
    lastUse.touch(credential.id);
    return { ok: true, merchantId: credential.merchantId, credentialId: credential.id, scopes: credential.scopes };
  }

  async function credentialFor(by: { keyId: string } | { id: string }): Promise<CachedCredential | undefined> {
    const cached = 'keyId' in by ? cache.byKey(by.keyId) : cache.byId(by.id);
    if (cached !== undefined) return cached ?? undefined;
    const readAt = cache.generation();
    const row = await repo.findCredentialForAuth(db, by);
    if (!row) {
      if ('keyId' in by) cache.rememberAbsent(by.keyId, readAt);
      return undefined;
    }
    const credential = {
      id: row.id,
      keyId: row.key_id,
      merchantId: row.merchant_id,
      secretHash: row.secret_hash,
      revoked: row.revoked_at !== null,
      merchantActive: row.merchant_status === 'ACTIVE',
      expiresAtMs: row.expires_at?.getTime() ?? null,
      allowList: row.allowed_ips ? buildAllowList(row.allowed_ips) : null,
      scopes: row.scopes,
      merchant: { name: row.merchant_name, status: row.merchant_status, createdAt: row.merchant_created_at.toISOString() },
    };
    cache.remember(credential, readAt);
    return credential;
  }

  /**
   * Re-seals a stored secret hash under the current pepper at its successful use (the older HMAC
   * form can only be re-sealed with the secret in hand). A compare-and-set on the old value: a
   * concurrent upgrade or a revocation's write wins. The cached entry keeps the old form until it
   * expires, which the previous pepper still verifies.
   */
  async function upgradeSecretHash(credential: CachedCredential, apiSecret: string): Promise<void> {
    await db.updateTable('api_credentials').set({ secret_hash: hasher.seal(credential.keyId, apiSecret) }).where('id', '=', credential.id).where('secret_hash', '=', credential.secretHash).execute();
  }

  async function issueCredentialIn(trx: Db, merchantId: string, options: CredentialOptions = {}): Promise<IssuedCredential> {
    const generated = hasher.generate();
    const row = await repo.insertCredential(trx, {
      id: newId(),
      merchant_id: merchantId,
      key_id: generated.apiKey,
      secret_hash: generated.secretHash,
      label: options.label ?? null,
      expires_at: options.expiresAt ?? null,
      allowed_ips: options.allowedIps ?? null,
      scopes: options.scopes ?? null,
    });
    return { ...toCredential(row), apiSecret: generated.apiSecret };
  }

  return {
    async createMerchant(input: { name: string }, by: AuditActor, claim?: IdempotentRequest): Promise<{ merchant: Merchant; credential: IssuedCredential }> {
      return inTransaction(db, async (trx) => {
        const merchant = toMerchant(await repo.insertMerchant(trx, { id: newId(), name: input.name, status: 'ACTIVE', created_at: clock.now() }));
        const credential = await issueCredentialIn(trx, merchant.id);
        for (const setUp of deps.onMerchantCreated ?? []) await setUp(trx, merchant.id);
        await recordAudit(trx, by, {
          action: 'merchant.create',
          targetType: 'merchant',
          targetId: merchant.id,
          details: { name: merchant.name, credentialId: credential.id },
        });
        // An Idempotency-Key's answer commits with the merchant.
        await claim?.complete(trx, { status: 201, body: { merchant, credential } });
        return { merchant, credential };
      });
    },

    /** Served from what authentication just read when it can (the same staleness bound). */
    async getMerchant(id: string): Promise<Merchant> {
      const cached = cache.merchant(id);
      if (cached) return { id, ...cached };
      const row = await repo.findMerchant(db, id);
      if (!row) throw notFound('Merchant');
      return toMerchant(row);
    },

    async listMerchants(page: { page: number; limit: number }) {
      const { rows, total } = await repo.listMerchants(db, { offset: (page.page - 1) * page.limit, limit: page.limit });
      return { data: rows.map(toMerchant), total, page: page.page, limit: page.limit };
    },

    countMerchants: () => repo.countMerchants(db),

    /** DISABLED merchants keep their data but every authenticated call answers 403. */
    /** `outer`: the transaction of an approval that enables the merchant (approvals/actions.ts). */
    async setMerchantStatus(id: string, to: MerchantStatus, by: AuditActor, outer?: Trx): Promise<Merchant> {
      return withinOrNew(db, outer, async (trx) => {
        const current = await repo.findMerchant(trx, id);
        if (!current) throw notFound('Merchant');
        // Every cache forgets the merchant once `trx` commits (an approval's too), never if it rolls back.
        revocations.merchantChanged(trx, id);
        if (current.status === to) return toMerchant(current);
        const updated = await repo.setMerchantStatus(trx, id, current.status, to, clock.now());
        if (!updated) throw new AppError('CONFLICT', 'Merchant status changed concurrently; retry');
        await recordAudit(trx, by, {
          action: to === 'DISABLED' ? 'merchant.disable' : 'merchant.enable',
          targetType: 'merchant',
          targetId: id,
          details: { from: current.status, to },
        });
        return toMerchant(updated);
      });
    },

    /**
     * `request`: the restrictions asked for (credential-options.ts); `can`: the creating person's
     * role permissions, so a key never exceeds them (an operator, without `can`, gives any).
     */
    async issueCredential(merchantId: string, by: AuditActor, claim?: IdempotentRequest, request: CredentialRequest = {}, can?: (permission: Permission) => boolean): Promise<IssuedCredential> {
      const options = credentialOptions(request, clock, can);
      return inTransaction(db, async (trx) => {
        if (!(await repo.findMerchant(trx, merchantId))) throw notFound('Merchant');
        const credential = await issueCredentialIn(trx, merchantId, options);
        const { apiSecret: _secret, ...after } = credential;
        await recordAudit(trx, by, {
          action: 'credential.issue',
          merchantId,
          targetType: 'credential',
          targetId: credential.id,
          details: { merchantId, apiKey: credential.apiKey, ...(credential.label === null ? {} : { label: credential.label }), after },
        });
        await claim?.complete(trx, { status: 201, body: credential });
        return credential;
      });
    },

    async listCredentials(merchantId: string): Promise<Credential[]> {
      if (!(await repo.findMerchant(db, merchantId))) throw notFound('Merchant');
      return (await repo.listCredentials(db, merchantId)).map(toCredential);
    },

    /** One credential of the merchant; another merchant's id is not found. */
    async getCredential(merchantId: string, credentialId: string): Promise<Credential> {
      const row = await repo.findCredential(db, merchantId, credentialId);
      if (!row) throw notFound('Credential');
      return toCredential(row);
    },

    /** Revocation takes effect at once, for key+secret and for tokens already issued. */
    async revokeCredential(merchantId: string, credentialId: string, by: AuditActor): Promise<Credential> {
      return inTransaction(db, async (trx) => {
        const revoked = await repo.revokeCredential(trx, merchantId, credentialId, clock.now());
        if (!revoked) {
          const existing = await repo.findCredential(trx, merchantId, credentialId);
          if (!existing) throw notFound('Credential');
          revocations.credentialRevoked(trx, credentialId);
          return toCredential(existing);
        }
        await recordAudit(trx, by, {
          action: 'credential.revoke',
          merchantId,
          targetType: 'credential',
          targetId: credentialId,
          details: { merchantId, apiKey: revoked.key_id, before: { revokedAt: null }, after: { revokedAt: revoked.revoked_at?.toISOString() ?? null } },
        });
        revocations.credentialRevoked(trx, credentialId);
        return toCredential(revoked);
      });
    },

    /** Checks an x-api-key / x-api-secret pair from `ip`. The secret is verified before anything else is revealed. */
    async checkKeyAndSecret(apiKey: string, apiSecret: string, ip?: string): Promise<CredentialCheck> {
      const credential = API_KEY_PATTERN.test(apiKey) ? await credentialFor({ keyId: apiKey }) : undefined;
      const check = hasher.check(credential?.keyId ?? 'mk_unknown', apiSecret, credential?.secretHash ?? unknownKeyHash);
      if (!check.matches || !credential) return { ok: false, reason: 'unknown' };
      if (check.stale) {
        await upgradeSecretHash(credential, apiSecret);
        cache.forgetCredential(credential.id);
      }
      if (credential.revoked) return { ok: false, reason: 'revoked' };
      return admit(credential, ip);
    },

    /** Checks that the credential a token was issued from is still live, and its restrictions (a token carries its key's). */
    async checkTokenCredential(merchantId: string, credentialId: string, ip?: string): Promise<CredentialCheck> {
      const credential = await credentialFor({ id: credentialId });
      if (!credential || credential.revoked || credential.merchantId !== merchantId) return { ok: false, reason: 'revoked' };
      return admit(credential, ip);
    },

    /** Last-use marks not yet written (tests wait for none). */
    pendingLastUses: () => lastUse.pending,
  };
}

export type MerchantsService = ReturnType<typeof createMerchantsService>;
