/**
 * The in-process credential cache behind authentication: entries expire after the TTL, and
 * this process's own revocations and disables are forgotten at once.
 */
import { describe, expect, it } from 'vitest';
import { type CachedCredential, createCredentialCache } from '../../../src/modules/merchants/credential-cache.ts';
import { TestClock, createTestContext } from '../../helpers/app.ts';

const credential = (overrides: Partial<CachedCredential> = {}): CachedCredential => ({
  id: 'c1',
  keyId: 'mk_1',
  merchantId: 'm1',
  secretHash: 'h',
  revoked: false,
  merchantActive: true,
  expiresAtMs: null,
  allowList: null,
  scopes: null,
  merchant: { name: 'M', status: 'ACTIVE', createdAt: '2026-01-01T00:00:00.000Z' },
  ...overrides,
});

describe('credential cache', () => {
  it('answers by key and by id until the TTL passes', () => {
    let now = 0;
    const cache = createCredentialCache({ ttlMs: 5000, now: () => now });
    cache.remember(credential(), cache.generation());
    expect(cache.byKey('mk_1')?.id).toBe('c1');
    expect(cache.byId('c1')?.keyId).toBe('mk_1');
    now = 4999;
    expect(cache.byKey('mk_1')).toBeDefined();
    now = 5000;
    expect(cache.byKey('mk_1')).toBeUndefined();
    expect(cache.byId('c1')).toBeUndefined();
  });

  it('drops an entry when the clock goes back, so a corrected wall clock never stretches its life', () => {
    let now = 10_000;
    const cache = createCredentialCache({ ttlMs: 5000, now: () => now });
    cache.remember(credential(), cache.generation());
    now = 9_999;
    expect(cache.byKey('mk_1')).toBeUndefined();
  });

  it('forgets one credential, or every credential of a merchant', () => {
    const cache = createCredentialCache({ ttlMs: 5000, now: () => 0 });
    cache.remember(credential(), cache.generation());
    cache.remember(credential({ id: 'c2', keyId: 'mk_2' }), cache.generation());
    cache.remember(credential({ id: 'c3', keyId: 'mk_3', merchantId: 'm2' }), cache.generation());
    cache.forgetCredential('c1');
    expect(cache.byKey('mk_1')).toBeUndefined();
    expect(cache.byKey('mk_2')).toBeDefined();
    cache.forgetMerchant('m1');
    expect(cache.byId('c2')).toBeUndefined();
    expect(cache.byId('c3')?.merchantId).toBe('m2');
    expect(cache.merchant('m1')).toBeUndefined();
    expect(cache.merchant('m2')?.name).toBe('M');
  });

  it('does not remember a read that started before a revocation or disable (it may predate the commit)', () => {
    const cache = createCredentialCache({ ttlMs: 5000, now: () => 0 });
    const readAt = cache.generation();
    cache.forgetCredential('c1');
    cache.remember(credential(), readAt);
    expect(cache.byKey('mk_1')).toBeUndefined();
    const later = cache.generation();
    cache.forgetMerchant('m9');
    cache.remember(credential(), later);
    expect(cache.byKey('mk_1')).toBeUndefined();
    cache.remember(credential(), cache.generation());
    expect(cache.byKey('mk_1')?.id).toBe('c1');
  });

  it('remembers that a key id does not exist, so an unknown key costs what a known one does', () => {
    const cache = createCredentialCache({ ttlMs: 5000, now: () => 0 });
    cache.rememberAbsent('mk_unknown', cache.generation());
    expect(cache.byKey('mk_unknown')).toBeNull();
    expect(cache.byKey('mk_other')).toBeUndefined();
  });

  it('keeps nothing with a TTL of 0', () => {
    const cache = createCredentialCache({ ttlMs: 0, now: () => 0 });
    cache.remember(credential(), cache.generation());
    expect(cache.byKey('mk_1')).toBeUndefined();
  });
});

describe('authentication through the cache', () => {
  it('a revocation in this process takes effect at once, for key+secret and bearer', async () => {
    const ctx = await createTestContext();
    try {
      const merchant = await ctx.createMerchant();
      const bearer = await ctx.bearerFor(merchant);
      const get = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: '/api/v1/merchant', headers });
      expect((await get(merchant.headers)).statusCode).toBe(200);
      expect((await get(bearer)).statusCode).toBe(200);
      await ctx.app.services.merchants.revokeCredential(merchant.merchantId, merchant.credentialId, { actor: 'test' });
      expect((await get(merchant.headers)).statusCode).toBe(401);
      expect((await get(bearer)).statusCode).toBe(401);
    } finally {
      await ctx.close();
    }
  });

  it('GET /merchant, answered from the authentication read, is the merchant as stored', async () => {
    const ctx = await createTestContext();
    try {
      const merchant = await ctx.createMerchant('Cached Name');
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/merchant', headers: merchant.headers });
      const row = await ctx.database.db.selectFrom('merchants').selectAll().where('id', '=', merchant.merchantId).executeTakeFirstOrThrow();
      expect(response.json()).toEqual({ id: row.id, name: row.name, status: row.status, createdAt: row.created_at.toISOString() });
    } finally {
      await ctx.close();
    }
  });

  it('disabling a merchant in this process takes effect at once', async () => {
    const ctx = await createTestContext();
    try {
      const merchant = await ctx.createMerchant();
      const get = () => ctx.app.inject({ method: 'GET', url: '/api/v1/merchant', headers: merchant.headers });
      expect((await get()).statusCode).toBe(200);
      await ctx.app.services.merchants.setMerchantStatus(merchant.merchantId, 'DISABLED', { actor: 'test' });
      expect((await get()).statusCode).toBe(403);
    } finally {
      await ctx.close();
    }
  });

  it('another process sees a revocation once its cached entry expires (bounded staleness)', async () => {
    const clock = new TestClock(new Date('2027-03-10T12:00:00Z'));
    const ctx = await createTestContext({}, { clock });
    try {
      const merchant = await ctx.createMerchant();
      const other = await ctx.buildApp();
      const get = () => other.inject({ method: 'GET', url: '/api/v1/merchant', headers: merchant.headers });
      expect((await get()).statusCode).toBe(200);
      await ctx.app.services.merchants.revokeCredential(merchant.merchantId, merchant.credentialId, { actor: 'test' });
      clock.advance(5_000);
      expect((await get()).statusCode).toBe(401);
    } finally {
      await ctx.close();
    }
  });
});
