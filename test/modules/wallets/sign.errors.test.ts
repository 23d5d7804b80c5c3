import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { buildTransaction, memo, newAddress, transferSol } from './helpers.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

const UNKNOWN_ID = '00000000-0000-7000-8000-000000000000';

describe('managed wallets: sign-transaction errors', () => {
  let ctx: WalletsFixture['ctx'];
  let merchant: WalletsFixture['merchant'];
  let other: WalletsFixture['other'];
  let receiver: WalletsFixture['receiver'];
  let call: WalletsFixture['call'];
  let createReceiver: WalletsFixture['createReceiver'];
  let sign: WalletsFixture['sign'];
  let send: WalletsFixture['send'];

  beforeAll(async () => {
    ({ ctx, merchant, other, receiver, call, createReceiver, sign, send } = await createWalletsFixture());
  });
  afterAll(() => ctx.close());

  describe('sign-transaction', () => {
    it('refuses a transaction the managed key does not sign', async () => {
      const tx = buildTransaction(newAddress(), [memo(newAddress(), 'hello')]);
      const body = expectErrorBody(await sign(tx), 422, 'TRANSACTION_REJECTED');
      expect(body.details).toMatchObject({ reason: 'MANAGED_KEY_NOT_SIGNER' });
    });

    it('malformed base64 or bytes are 400 VALIDATION_ERROR with details', async () => {
      for (const transaction of ['not base64!', 'AAAA', Buffer.from('hello world, not a transaction').toString('base64'), '']) {
        const body = expectErrorBody(await sign(transaction), 400, 'VALIDATION_ERROR');
        expect(Object.keys(body.details ?? {})).toEqual(['body.transaction']);
      }
      expectErrorBody(await call('POST', `/receivers/${receiver.id}/wallet/sign-transaction`, {}), 400, 'VALIDATION_ERROR');
      expectErrorBody(await call('POST', `/receivers/${receiver.id}/wallet/sign-transaction`, { transaction: 'AA==', extra: 1 }), 400, 'VALIDATION_ERROR');
      // Valid transaction followed by junk.
      const tx = Buffer.concat([Buffer.from(buildTransaction(receiver.walletAddress, [memo(receiver.walletAddress, 'x')]), 'base64'), Buffer.from([1, 2])]);
      expectErrorBody(await sign(tx.toString('base64')), 400, 'VALIDATION_ERROR');
    });

    it('a receiver without a managed wallet is 422 NO_MANAGED_WALLET; unknown and foreign receivers are 404', async () => {
      const plain = await createReceiver({});
      const tx = buildTransaction(receiver.walletAddress, [memo(receiver.walletAddress, 'x')]);
      expectErrorBody(await sign(tx, plain.id), 422, 'NO_MANAGED_WALLET');
      expectErrorBody(await send(tx, plain.id), 422, 'NO_MANAGED_WALLET');
      expectErrorBody(await sign(tx, UNKNOWN_ID), 404, 'NOT_FOUND');
      expectErrorBody(await sign(tx, receiver.id, other), 404, 'NOT_FOUND');
      expectErrorBody(await send(tx, receiver.id, other), 404, 'NOT_FOUND');
      expectErrorBody(await call('POST', '/receivers/not-a-uuid/wallet/sign-transaction', { transaction: tx }), 400, 'VALIDATION_ERROR');
    });
  });

  it('mutated transactions are never a 500 (400, 422 or, when still valid, 200)', async () => {
    const valid = Buffer.from(buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, newAddress(), 1_000_000n), memo(receiver.walletAddress, 'fuzz')]), 'base64');
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const app = await ctx.buildApp({ WALLET_SIGN_RATE_LIMIT_PER_MINUTE: '0' });
    const post = (operation: string, body: Buffer) =>
      app.inject({ method: 'POST', url: `/api/v1/receivers/${receiver.id}/wallet/${operation}`, headers: merchant.headers, payload: { transaction: body.toString('base64') } });
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) {
      const mutated = Buffer.from(valid);
      for (let flips = 1 + random(3); flips > 0; flips--) mutated[random(mutated.length)] = random(256);
      const cut = random(10) === 0 ? mutated.subarray(0, random(mutated.length)) : mutated;
      for (const response of [await post('sign-transaction', cut), await post('sign-and-send-transaction', cut)]) {
        statuses.add(response.statusCode);
        expect([200, 400, 422], response.body).toContain(response.statusCode);
      }
    }
    expect(statuses.has(400) || statuses.has(422)).toBe(true);
  });
});
