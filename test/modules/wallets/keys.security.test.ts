import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyVault } from '../../../src/lib/key-vault.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

describe('managed wallets: keys security', () => {
  let ctx: WalletsFixture['ctx'];
  let merchant: WalletsFixture['merchant'];
  let receiver: WalletsFixture['receiver'];

  beforeAll(async () => {
    ({ ctx, merchant, receiver } = await createWalletsFixture());
  });
  afterAll(() => ctx.close());

  describe('keys', () => {
    it('keys at rest are not readable without the KEK (nor under another owner id)', async () => {
      const row = await ctx.database.db.selectFrom('managed_wallets').selectAll().where('receiver_id', '=', receiver.id).executeTakeFirstOrThrow();
      expect(row.encrypted_private_key).toMatch(/^v1:/);
      const right = createKeyVault({ kek: ctx.config.walletKek, version: 1 });
      const sealed = { encryptedPrivateKey: row.encrypted_private_key, keyVersion: row.key_version };
      expect(right.open(receiver.id, sealed).address).toBe(receiver.walletAddress);
      const wrongKek = createKeyVault({ kek: Buffer.alloc(32, 7).toString('base64'), version: 1 });
      expect(() => wrongKek.open(receiver.id, sealed)).toThrow();
      expect(() => right.open(merchant.merchantId, sealed)).toThrow();
      expect(() => right.open(receiver.id, { ...sealed, keyVersion: 2 })).toThrow();
    });
  });
});
