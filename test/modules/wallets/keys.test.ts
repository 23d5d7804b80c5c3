import { address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

describe('managed wallets: keys', () => {
  let ctx: WalletsFixture['ctx'];
  let merchant: WalletsFixture['merchant'];
  let call: WalletsFixture['call'];
  let createReceiver: WalletsFixture['createReceiver'];

  beforeAll(async () => {
    ({ ctx, merchant, call, createReceiver } = await createWalletsFixture());
  });
  afterAll(() => ctx.close());

  describe('keys', () => {
    it('a receiver created with createManagedWallet has a valid Solana walletAddress and hasManagedWallet', async () => {
      const created = await createReceiver({ createManagedWallet: true });
      expect(created.hasManagedWallet).toBe(true);
      expect(() => address(created.walletAddress)).not.toThrow();
      const row = await ctx.database.db.selectFrom('managed_wallets').selectAll().where('receiver_id', '=', created.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ address: created.walletAddress, merchant_id: merchant.merchantId, key_version: 1 });
      const fetched = (await call('GET', `/receivers/${created.id}`)).json();
      expect(fetched).toMatchObject({ walletAddress: created.walletAddress, hasManagedWallet: true });
    });

    it('a receiver without createManagedWallet gets no key', async () => {
      const created = await createReceiver({});
      expect(created).toMatchObject({ walletAddress: null, hasManagedWallet: false });
      expect(await ctx.database.db.selectFrom('managed_wallets').select('id').where('receiver_id', '=', created.id).executeTakeFirst()).toBeUndefined();
    });

    it('publishes the fee payer without credentials', async () => {
      const response = await ctx.app.inject({ url: '/api/v1/wallet/fee-payer' });
      expect(response.statusCode).toBe(200);
      expect(() => address(response.json().address)).not.toThrow();
      expect(Object.keys(response.json())).toEqual(['address']);
    });
  });
});
