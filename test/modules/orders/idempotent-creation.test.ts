/**
 * Order creation with an Idempotency-Key is crash-safe (issue 14, docs/architecture/idempotency.md,
 * "Idempotency"): the order and its stored answer commit in one transaction. The "crash" is the
 * process losing the answer after the commit (the service throws once the order exists, so the
 * client gets a 500 and nothing else of that request survives): the retry must replay the first
 * answer and no second order may exist. Under the previous design (answer stored after the
 * handler, freed on a 5xx) the retry created a second order.
 */
import { describe, expect, it } from 'vitest';
import { type Json, ordersTest } from './helpers.ts';

describe('order creation with an Idempotency-Key', () => {
  const t = ordersTest();

  /** Makes the next call of `method` lose its answer after the order committed. */
  function crashAfterCommit(method: 'createPayin' | 'createPayout') {
    const orders = t.ctx.app.services.orders as Record<typeof method, (...args: unknown[]) => Promise<unknown>>;
    const original = orders[method];
    orders[method] = async (...args: unknown[]) => {
      orders[method] = original;
      await original(...args);
      throw new Error('the process died after the commit, before answering');
    };
  }

  const ordersOf = (merchantId: string) => t.ctx.database.db.selectFrom('orders').selectAll().where('merchant_id', '=', merchantId).execute();

  for (const type of ['payin', 'payout'] as const) {
    it(`${type}: an answer lost after the commit is replayed by the retry, and no second order exists`, async () => {
      const { merchant, receiver } = await t.merchantWithReceiver(`Crash ${type}`);
      const body: Json = type === 'payin' ? { receiverId: receiver.id, amountBrl: 120 } : { receiverId: receiver.id, amountCrypto: 20, sourceToken: 'USDC' };
      const headers = { 'idempotency-key': `crash-${type}-${receiver.id}` };

      crashAfterCommit(type === 'payin' ? 'createPayin' : 'createPayout');
      const lost = await t.call('POST', `/${type}`, merchant, body, headers);
      expect(lost.statusCode).toBe(500);
      const afterCrash = await ordersOf(merchant.merchantId);
      expect(afterCrash).toHaveLength(1);

      const retry = await t.call('POST', `/${type}`, merchant, body, headers);
      expect(retry.statusCode, retry.body).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toMatchObject({ id: afterCrash[0]!.id, status: type === 'payin' ? 'AWAITING_PAYMENT' : 'AWAITING_DEPOSIT' });
      // The stored answer is the route's own rendering of the order, as GET shows it now.
      const shown = await t.call('GET', `/orders/${afterCrash[0]!.id}`, merchant);
      expect(retry.json()).toEqual(shown.json());
      expect(await ordersOf(merchant.merchantId)).toHaveLength(1);
    });
  }

  it('a refusal rolls the stored answer back with the order, and is itself stored as the final 4xx', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver('Refused');
    const headers = { 'idempotency-key': `refused-${receiver.id}` };
    const body = { receiverId: receiver.id, amountBrl: 10_000_000 };
    const refused = await t.call('POST', '/payin', merchant, body, headers);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    const replay = await t.call('POST', '/payin', merchant, body, headers);
    expect(replay.statusCode).toBe(refused.statusCode);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await ordersOf(merchant.merchantId)).toHaveLength(0);
  });

  it('without a key the one-statement path still answers, and each request is a new order', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver('No key');
    const body = { receiverId: receiver.id, amountBrl: 50 };
    expect((await t.call('POST', '/payin', merchant, body)).statusCode).toBe(201);
    expect((await t.call('POST', '/payin', merchant, body)).statusCode).toBe(201);
    expect(await ordersOf(merchant.merchantId)).toHaveLength(2);
  });
});
