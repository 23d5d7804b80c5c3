/**
 * Order creation with an Idempotency-Key is crash-safe (docs/architecture/idempotency.md,
 * in-transaction mode): the order and its stored answer commit in one statement. The "crash" is the
 * process losing the answer after the commit (the service throws once the order exists, so the
 * client gets a 500 and nothing else of that request survives): the retry must replay the first
 * answer and no second order may exist. Under the previous design (answer stored after the
 * handler, freed on a 5xx) the retry created a second order.
 */
import { describe, expect, it } from 'vitest';
import { txidOfKey } from '../../../src/adapters/pix/identifiers.ts';
import { creationRepo } from '../../../src/modules/orders/creation/creation-repo.ts';
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

  for (const type of ['payin', 'payout'] as const) {
    it(`${type}: 10 concurrent requests with one key create one order, and all answer its body`, async () => {
      const { merchant, receiver } = await t.merchantWithReceiver(`Concurrent ${type}`);
      const body: Json = type === 'payin' ? { receiverId: receiver.id, amountBrl: 75 } : { receiverId: receiver.id, amountCrypto: 15, sourceToken: 'USDC' };
      const headers = { 'idempotency-key': `concurrent-${type}-${receiver.id}` };
      const answers = await Promise.all(Array.from({ length: 10 }, () => t.call('POST', `/${type}`, merchant, body, headers)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(201));
      const orders = await ordersOf(merchant.merchantId);
      expect(orders).toHaveLength(1);
      for (const answer of answers) expect(answer.json()).toEqual(answers[0]!.json());
      expect(answers[0]!.json()).toMatchObject({ id: orders[0]!.id });
      // Exactly one request made the order; the others replayed it.
      expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true').length).toBeLessThanOrEqual(1);
      const usage = await t.ctx.database.db.selectFrom('receiver_daily_usage').select('order_count').where('receiver_id', '=', receiver.id).executeTakeFirstOrThrow();
      expect(usage.order_count).toBe(1);
    });
  }

  it('the same key with another body is 409 IDEMPOTENCY_CONFLICT, and the first order stays the only one', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver('Key reuse');
    const headers = { 'idempotency-key': `reuse-${receiver.id}` };
    expect((await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 30 }, headers)).statusCode).toBe(201);
    const reused = await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 31 }, headers);
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ error: 'IDEMPOTENCY_CONFLICT' });
    expect(await ordersOf(merchant.merchantId)).toHaveLength(1);
  });

  it('a crash between the PIX charge and the insert: the retry names the same charge, and one order exists', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver('Charge then crash');
    const key = `charge-crash-${receiver.id}`;
    const body = { receiverId: receiver.id, amountBrl: 64 };
    const original = creationRepo.insertReserved;
    creationRepo.insertReserved = async () => {
      creationRepo.insertReserved = original;
      throw new Error('the process died after the provider call, before the insert');
    };
    try {
      expect((await t.call('POST', '/payin', merchant, body, { 'idempotency-key': key })).statusCode).toBe(500);
    } finally {
      creationRepo.insertReserved = original;
    }
    const txid = txidOfKey(merchant.merchantId, key);
    const charges = () => t.ctx.database.db.selectFrom('sandbox_pix_charges').select(['txid', 'pix_copia_e_cola']).where('txid', '=', txid).execute();
    expect(await charges()).toHaveLength(1);
    expect(await ordersOf(merchant.merchantId)).toHaveLength(0);

    const retry = await t.call('POST', '/payin', merchant, body, { 'idempotency-key': key });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json()).toMatchObject({ paymentReference: txid, pixPaymentCode: (await charges())[0]!.pix_copia_e_cola });
    expect(await charges()).toHaveLength(1);
    expect(await ordersOf(merchant.merchantId)).toHaveLength(1);
  });

  it('a key whose PIX charge exists for another amount (an earlier request died before its order) is 409 IDEMPOTENCY_CONFLICT on every retry, never 503', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver('Charge of another amount');
    const key = `other-amount-${receiver.id}`;
    // What a first request under this key left behind when it died between its charge and its insert.
    await t.ctx.app.services.adapters.sandbox.pix.createCharge({ txid: txidOfKey(merchant.merchantId, key), amountBrl: '1.23', expiresInSeconds: 900 });
    const body = { receiverId: receiver.id, amountBrl: 64 };
    const first = await t.call('POST', '/payin', merchant, body, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(409);
    expect(first.json()).toMatchObject({ error: 'IDEMPOTENCY_CONFLICT', message: expect.stringMatching(/new Idempotency-Key/) });
    // The refusal is the key's answer: the retry replays it rather than failing anew.
    const retry = await t.call('POST', '/payin', merchant, body, { 'idempotency-key': key });
    expect(retry.statusCode, retry.body).toBe(409);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toMatchObject({ error: 'IDEMPOTENCY_CONFLICT' });
    expect(await ordersOf(merchant.merchantId)).toHaveLength(0);
    expect((await t.call('POST', '/payin', merchant, body, { 'idempotency-key': `${key}-new` })).statusCode).toBe(201);
  });

  it('the keyed answer, rendered before the insert from the row being inserted, is what GET shows', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver('Rendered before');
    for (const [type, body] of [['payin', { receiverId: receiver.id, amountBrl: 42.5 }], ['payout', { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' }]] as const) {
      const headers = { 'idempotency-key': `rendered-${type}-${receiver.id}` };
      const first = await t.call('POST', `/${type}`, merchant, body, headers);
      const replay = await t.call('POST', `/${type}`, merchant, body, headers);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toBe(first.body);
      expect(replay.json()).toEqual((await t.call('GET', `/orders/${first.json().id}`, merchant)).json());
    }
  });
  for (const type of ['payin', 'payout'] as const) {
    it(`${type}: a key reused after its record expired is 409 IDEMPOTENCY_CONFLICT, not a 500 (its charge or deposit address belongs to the first order)`, async () => {
      const { merchant, receiver } = await t.merchantWithReceiver(`Expired key ${type}`);
      const body: Json = type === 'payin' ? { receiverId: receiver.id, amountBrl: 50 } : { receiverId: receiver.id, amountCrypto: 5, sourceToken: 'USDC' };
      const headers = { 'idempotency-key': `expired-${type}-${receiver.id}` };
      expect((await t.call('POST', `/${type}`, merchant, body, headers)).statusCode).toBe(201);
      // The cleanup job's work once the key's TTL has passed.
      await t.ctx.database.db.deleteFrom('idempotency_keys').where('merchant_id', '=', merchant.merchantId).execute();

      const reused = await t.call('POST', `/${type}`, merchant, body, headers);
      expect(reused.statusCode, reused.body).toBe(409);
      expect(reused.json()).toMatchObject({ error: 'IDEMPOTENCY_CONFLICT' });
      expect(reused.json().message).toMatch(/new Idempotency-Key/i);
      expect(await ordersOf(merchant.merchantId)).toHaveLength(1);
    });
  }
});
