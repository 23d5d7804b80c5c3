/**
 * A revocation or a merchant's status change is announced once the transaction that makes it has
 * committed, and never when it rolls back, whoever opened that transaction: an approval enables a
 * merchant inside its own (approvals/actions.ts). Announced before the commit, another process
 * could drop its entry, re-read the old row and cache it for the TTL. Both drivers: the
 * announcement is observed by a subscriber of the process's hub; and no module publishes on the hub
 * directly (the one rule: every announcement goes through the commit signals).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_CHANNEL } from '../../../src/modules/merchants/credential-revocations.ts';
import { inTransaction } from '../../../src/platform/commit-signals.ts';
import { type TestContext, type TestMerchant, createTestContext } from '../../helpers/app.ts';

const actor = { actor: 'test' };

describe('credential announcements leave with the commit', () => {
  let ctx: TestContext;
  let merchant: TestMerchant;
  const heard: string[] = [];
  const status = async () => (await ctx.database.db.selectFrom('merchants').select('status').where('id', '=', merchant.merchantId).executeTakeFirstOrThrow()).status;
  const get = () => ctx.app.inject({ method: 'GET', url: '/api/v1/merchant', headers: merchant.headers });

  beforeAll(async () => {
    ctx = await createTestContext();
    merchant = await ctx.createMerchant();
    ctx.app.services.notifications.subscribe(CREDENTIALS_CHANNEL, (payload) => heard.push(payload));
  });
  afterAll(() => ctx.close());

  it('a merchant disabled in a transaction that rolls back is never announced, and stays served', async () => {
    heard.length = 0;
    expect((await get()).statusCode).toBe(200);
    await expect(
      inTransaction(ctx.database.db, async (trx) => {
        await ctx.app.services.merchants.setMerchantStatus(merchant.merchantId, 'DISABLED', actor, trx);
        throw new Error('the approval failed after the action');
      }),
    ).rejects.toThrow('the approval failed');
    expect(heard).toEqual([]);
    expect(await status()).toBe('ACTIVE');
    expect((await get()).statusCode).toBe(200);
  });

  it('a merchant disabled inside an outer transaction is announced only once it commits, then refused at once', async () => {
    heard.length = 0;
    expect((await get()).statusCode).toBe(200);
    await inTransaction(ctx.database.db, async (trx) => {
      await ctx.app.services.merchants.setMerchantStatus(merchant.merchantId, 'DISABLED', actor, trx);
      expect(heard, 'announced before the transaction committed').toEqual([]);
    });
    expect(heard).toEqual([`merchant:${merchant.merchantId}`]);
    expect((await get()).statusCode).toBe(403);
    // And back, as the MERCHANT_ENABLE approval does it.
    await inTransaction(ctx.database.db, (trx) => ctx.app.services.merchants.setMerchantStatus(merchant.merchantId, 'ACTIVE', actor, trx));
    expect((await get()).statusCode).toBe(200);
  });

  it('a key revoked is announced after its commit, as the key is refused', async () => {
    heard.length = 0;
    const other = await ctx.createMerchant('Revoked');
    const subscribed = ctx.app.services.notifications.subscribe(CREDENTIALS_CHANNEL, async () => {
      // The subscriber runs after the commit: another connection already reads the revocation.
      const row = await ctx.database.db.selectFrom('api_credentials').select('revoked_at').where('id', '=', other.credentialId).executeTakeFirstOrThrow();
      heard.push(row.revoked_at ? 'committed' : 'not yet committed');
    });
    await ctx.app.services.merchants.revokeCredential(other.merchantId, other.credentialId, actor);
    subscribed();
    await expect.poll(() => heard).toContain('committed');
    expect(heard).toContain(`credential:${other.credentialId}`);
    expect(heard).not.toContain('not yet committed');
  });
});

describe('the one rule', () => {
  it('no source file but the composition root publishes on the notifications hub', () => {
    const root = join(import.meta.dirname, '../../../src');
    const publishers: string[] = [];
    for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!entry.endsWith('.ts') || entry === 'services.ts' || entry === join('platform', 'notifications.ts')) continue;
      if (/\.publish\(/.test(readFileSync(join(root, entry), 'utf8'))) publishers.push(entry);
    }
    expect(publishers, 'announce with signalAfterCommit(trx, channel, payload): it leaves after the commit').toEqual([]);
  });
});
