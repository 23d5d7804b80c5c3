import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { testDriver } from '../../helpers/database.ts';
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

  // Issue 24, finding 4: the limiter keyed on an unchecked receiverId forgot a real wallet's count
  // after 5,000 other keys (the plugin's LRU), so 5,001 random ids reset it. The limiter's outcome
  // cannot depend on the driver, so it runs in CI's PostgreSQL pass only: 5,001 requests took 9 s
  // there and 30 s on PGlite.
  it.runIf(testDriver() === 'postgres')('counts only verified receivers: 5,001 random receiverIds are 404 and do not reset a real wallet\'s limit', async () => {
    const app = await ctx.buildApp({ WALLET_SIGN_RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_MINUTE: '0' });
    const transaction = buildTransaction(receiver.walletAddress, [memo(receiver.walletAddress, 'evict')]);
    const signAt = (id: string) => app.inject({ method: 'POST', url: `/api/v1/receivers/${id}/wallet/sign-transaction`, headers: merchant.headers, payload: { transaction } });
    expect((await signAt(receiver.id)).statusCode).toBe(200);
    expect((await signAt(receiver.id)).statusCode).toBe(200);
    const statuses = new Map<number, number>();
    for (let sent = 0; sent < 5_001; sent += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, 5_001 - sent) }, () => signAt(randomUUID())));
      for (const response of batch) statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 404: 5_001 });
    expect((await signAt(receiver.id)).statusCode).toBe(200);
    expectErrorBody(await signAt(receiver.id), 429, 'RATE_LIMITED');
  }, 120_000);
});
