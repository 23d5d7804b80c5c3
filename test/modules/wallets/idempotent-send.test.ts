/**
 * Issue 14, must show: sign-and-send retried with one Idempotency-Key gives one on-chain
 * transaction and the same hash, also when the first request died or failed after the broadcast
 * was recorded (broadcast-once.ts): the retry sends the same bytes again, never a second
 * transaction. The sandbox chain is LiteSVM in process.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChainUnavailableError, type TransactionChain } from '../../../src/adapters/chain/transactions-port.ts';
import { buildTransaction, newAddress, transferSol } from './helpers.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

describe('sign-and-send with an Idempotency-Key', () => {
  let f: WalletsFixture;
  let chain: TransactionChain;
  let originalSubmit: TransactionChain['submitTransaction'];
  const sent: string[] = [];

  beforeAll(async () => {
    f = await createWalletsFixture();
    chain = f.ctx.app.services.wallets.chain;
    originalSubmit = chain.submitTransaction;
  });
  afterAll(() => f.ctx.close());
  afterEach(() => {
    chain.submitTransaction = originalSubmit;
  });

  const sendWithKey = (transaction: string, key: string) =>
    f.ctx.app.inject({
      method: 'POST',
      url: `/api/v1/receivers/${f.receiver.id}/wallet/sign-and-send-transaction`,
      headers: { ...f.merchant.headers, 'idempotency-key': key },
      payload: { transaction },
    });

  /** Counts what reaches the chain; `fail` decides, per broadcast, to fail before or after it. */
  function watchBroadcasts(fail: (n: number) => 'before' | 'after' | undefined) {
    sent.length = 0;
    chain.submitTransaction = async (wire) => {
      const n = sent.push('attempt');
      if (fail(n) === 'before') throw new ChainUnavailableError('connection reset before the node answered');
      const result = await originalSubmit.call(chain, wire);
      if (result.ok) sent[n - 1] = result.signature;
      if (fail(n) === 'after') throw new Error('the process died after the broadcast, before answering');
      return result;
    };
  }

  const transfer = (destination: string, lamports: bigint) =>
    buildTransaction(f.receiver.walletAddress, [transferSol(f.receiver.walletAddress, destination, lamports)]);

  it('the same key twice: one transaction on chain, the same hash, the fee paid once', async () => {
    watchBroadcasts(() => undefined);
    const destination = newAddress();
    const tx = transfer(destination, 100_000_000n);
    const sponsorBefore = await f.balance(f.sponsor);
    const key = randomUUID();
    const first = await sendWithKey(tx, key);
    expect(first.statusCode, first.body).toBe(200);
    const retry = await sendWithKey(tx, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().hash).toBe(first.json().hash);
    expect(sent).toEqual([first.json().hash]);
    expect(await f.balance(destination)).toBe(100_000_000n);
    expect(sponsorBefore - (await f.balance(f.sponsor))).toBe(10_000n);
    // Without a key the same body is a new transaction (a new blockhash): the key is what makes it once.
    expect((await f.send(tx)).json().hash).not.toBe(first.json().hash);
  });

  it('died after the broadcast: the retry answers the same hash and sends nothing new', async () => {
    watchBroadcasts((n) => (n === 1 ? 'after' : undefined));
    const destination = newAddress();
    const tx = transfer(destination, 50_000_000n);
    const key = randomUUID();
    const lost = await sendWithKey(tx, key);
    expect(lost.statusCode).toBe(500);
    const retry = await sendWithKey(tx, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().hash).toBe(sent[0]);
    expect(sent).toHaveLength(1);
    expect(await f.balance(destination)).toBe(50_000_000n);
    const replay = await sendWithKey(tx, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().hash).toBe(sent[0]);
  });

  it('the network failed at the broadcast: the retry sends the same bytes (same hash), once on chain', async () => {
    watchBroadcasts((n) => (n === 1 ? 'before' : undefined));
    const destination = newAddress();
    const tx = transfer(destination, 70_000_000n);
    const key = randomUUID();
    const failed = await sendWithKey(tx, key);
    expect(failed.statusCode).toBe(503);
    const row = await f.ctx.database.db.selectFrom('idempotency_keys').select(['effect', 'state']).where('key', '=', key).executeTakeFirstOrThrow();
    const recorded = JSON.parse(row.effect!) as { hash: string };
    const retry = await sendWithKey(tx, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().hash).toBe(recorded.hash);
    expect(sent).toEqual(['attempt', recorded.hash]);
    expect(await f.balance(destination)).toBe(70_000_000n);
    expect((await f.call('GET', `/sandbox/wallet/transactions/${recorded.hash}`)).json()).toMatchObject({ status: 'FINALIZED' });
  });
});
