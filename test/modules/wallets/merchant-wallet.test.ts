import { address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { buildTransaction, decodeWire, newAddress, transferSol, verifiesFor } from './helpers.ts';
import { type WalletsFixture, SOL, createWalletsFixture } from './fixture.ts';

describe('managed wallets: merchant wallet', () => {
  let ctx: WalletsFixture['ctx'];
  let sponsor: WalletsFixture['sponsor'];
  let call: WalletsFixture['call'];
  let balance: WalletsFixture['balance'];
  let airdrop: WalletsFixture['airdrop'];

  beforeAll(async () => {
    ({ ctx, sponsor, call, balance, airdrop } = await createWalletsFixture());
  });
  afterAll(() => ctx.close());

  describe('merchant wallet', () => {
    it('is created on first use, once, even under concurrent first calls', async () => {
      const fresh = await ctx.createMerchant('Lazy Wallet');
      const answers = await Promise.all(Array.from({ length: 5 }, () => call('GET', '/merchant/wallet', undefined, fresh)));
      const addresses = new Set(answers.map((r) => r.json().address));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(addresses.size).toBe(1);
      const rows = await ctx.database.db.selectFrom('managed_wallets').select('address').where('merchant_id', '=', fresh.merchantId).execute();
      expect(rows).toHaveLength(1);
    });

    it('signs and sends like a receiver wallet', async () => {
      const { address: own } = (await call('GET', '/merchant/wallet')).json();
      await airdrop(own, SOL);
      const before = await balance(sponsor);
      const tx = buildTransaction(own, [transferSol(own, newAddress(), 5_000_000n)]);
      const signed = await call('POST', '/merchant/wallet/sign-transaction', { transaction: tx });
      expect(signed.statusCode, signed.body).toBe(200);
      const decoded = decodeWire(signed.json().signedTransaction);
      expect(verifiesFor(own, new Uint8Array(decoded.messageBytes), decoded.signatures[address(own)]!)).toBe(true);
      const sent = await call('POST', '/merchant/wallet/sign-and-send-transaction', { transaction: tx });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(before - (await balance(sponsor))).toBe(10_000n);
      const drain = await call('POST', '/merchant/wallet/sign-and-send-transaction', { transaction: buildTransaction(own, [transferSol(sponsor, own, SOL)]) });
      expect(expectErrorBody(drain, 422, 'TRANSACTION_REJECTED').details?.reason).toBe('SPONSOR_TRANSFER');
    });
  });
});
