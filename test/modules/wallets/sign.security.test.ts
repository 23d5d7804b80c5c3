import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { buildTransaction, memo } from './helpers.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

describe('managed wallets: sign security', () => {
  let ctx: WalletsFixture['ctx'];
  let merchant: WalletsFixture['merchant'];
  let receiver: WalletsFixture['receiver'];
  let createSigningReceiver: WalletsFixture['createSigningReceiver'];

  beforeAll(async () => {
    ({ ctx, merchant, receiver, createSigningReceiver } = await createWalletsFixture());
  });
  afterAll(() => ctx.close());

  it('rate-limits sign requests per receiver', async () => {
    const app = await ctx.buildApp({ WALLET_SIGN_RATE_LIMIT_PER_MINUTE: '2' });
    const second = await createSigningReceiver();
    const tx = (owner: string) => buildTransaction(owner, [memo(owner, 'rate')]);
    const signAt = (id: string, owner: string) =>
      app.inject({ method: 'POST', url: `/api/v1/receivers/${id}/wallet/sign-transaction`, headers: merchant.headers, payload: { transaction: tx(owner) } });
    expect((await signAt(receiver.id, receiver.walletAddress)).statusCode).toBe(200);
    expect((await signAt(receiver.id, receiver.walletAddress)).statusCode).toBe(200);
    const limited = await signAt(receiver.id, receiver.walletAddress);
    expectErrorBody(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signAt(second.id, second.walletAddress)).statusCode).toBe(200);
  });
});
