/**
 * Orders end to end through HTTP on the sandbox PSP and chain: both lifecycles with their
 * events, expiry, refunds, concurrency of payments and of limits, the night rule, quotes and
 * validation. The worker is driven by hand (`runDuePass`, `settlePass`) with a test clock.
 */
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { decimal } from '../../src/lib/money.ts';
import { buildCatalog } from '../../src/modules/webhooks/catalog.ts';
import { orderEventDefinitions } from '../../src/modules/orders/events.ts';
import { TestClock, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../helpers/app.ts';
import { randomCpf } from '../helpers/documents.ts';

const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
/** 12:00 in São Paulo: outside the night window. */
const NOON_SP = '2026-11-23T15:00:00.000Z';
const UUID = '00000000-0000-7000-8000-000000000000';
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => void;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('orders', () => {
  const clock = new TestClock(new Date(NOON_SP));
  let ctx: TestContext;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    ctx = await createTestContext({}, { clock });
    merchant = await ctx.createMerchant('Loja A');
    other = await ctx.createMerchant('Loja B');
  });
  afterAll(() => ctx.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, who: TestMerchant = merchant, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: { ...who.headers, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function activeReceiver(extra: Json = {}, who: TestMerchant = merchant): Promise<Json> {
    const created = await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Joana Souza', email: 'joana@example.com', walletAddress: WALLET, ...extra }, who);
    expect(created.statusCode, created.body).toBe(201);
    const approved = await call('POST', `/sandbox/receivers/${created.json().id}/kyc`, { decision: 'APPROVE' }, who);
    expect(approved.json().status).toBe('ACTIVE');
    return approved.json();
  }

  const events = async (orderId: string) =>
    (await ctx.database.db.selectFrom('events').select(['event_type', 'payload']).orderBy('created_at').orderBy('id').execute()).filter(
      (row) => row.payload.orderId === orderId,
    );

  const drive = async (passes = 5) => {
    for (let i = 0; i < passes; i++) {
      await ctx.app.services.orderSteps.runDuePass();
      await ctx.app.services.sandbox.settlePass();
    }
  };

  const COMMON = ['event', 'externalId', 'orderId', 'status', 'timestamp', 'type'];
  const keysOf = (payload: Json) => Object.keys(payload).sort();

  describe('PAYIN', () => {
    it('goes from a valid BR Code to COMPLETED with txHash and its events in order', async () => {
      const receiver = await activeReceiver();
      const created = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 150.75, externalId: 'pedido-1' });
      expect(created.statusCode, created.body).toBe(201);
      const order = created.json();
      expect(order).toMatchObject({
        type: 'PAYIN',
        status: 'AWAITING_PAYMENT',
        amountBrl: 150.75,
        targetToken: 'USDC',
        sourceToken: null,
        destinationWallet: WALLET,
        exchangeRate: 5.4,
        platformFeePercentage: 0.5,
        merchantFeePercentage: 0,
        feePercentage: 0.5,
        platformFeeAmountBrl: 0.75,
        merchantFeeAmountBrl: 0,
        netAmountBrl: 150,
        amountToken: 27.777777,
        amountUsdc: 27.777777,
        receiverName: 'Joana Souza',
        merchantName: 'Loja A',
        externalId: 'pedido-1',
        transactions: [],
      });
      const parsed = parsePix(order.pixPaymentCode) as unknown as Json;
      expect(parsed.transactionAmount).toBe(150.75);
      expect(Date.parse(order.expiresAt) - Date.parse(NOON_SP)).toBe(900_000);

      const paid = await call('POST', `/sandbox/orders/${order.id}/pix-payment`, {});
      expect(paid.json().status).toBe('PAYMENT_RECEIVED');
      await drive();
      const done = (await call('GET', `/orders/${order.id}`)).json();
      expect(done).toMatchObject({ status: 'COMPLETED', completedAt: NOON_SP });
      expect(done.transactions.map((tx: Json) => [tx.type, tx.status])).toEqual([
        ['PIX_IN', 'CONFIRMED'],
        ['CHAIN_TRANSFER', 'CONFIRMED'],
      ]);
      const txHash = done.transactions[1].txHash;
      expect(txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);

      const emitted = await events(order.id);
      expect(emitted.map((e) => e.event_type)).toEqual(['order.payment_received', 'order.completed']);
      expect(keysOf(emitted[0]!.payload)).toEqual([...COMMON, 'amountBrl', 'pixEndToEndId'].sort());
      expect(emitted[0]!.payload).toMatchObject({ status: 'PAYMENT_RECEIVED', amountBrl: 150.75, externalId: 'pedido-1', type: 'PAYIN' });
      expect(emitted[0]!.payload.pixEndToEndId).toMatch(/^E[0-9A-Z]{8}\d{12}[a-zA-Z0-9]{11}$/);
      expect(keysOf(emitted[1]!.payload)).toEqual([...COMMON, 'amountBrl', 'amountToken', 'destinationWallet', 'targetToken', 'txHash'].sort());
      expect(emitted[1]!.payload).toMatchObject({ status: 'COMPLETED', amountToken: 27.777777, targetToken: 'USDC', destinationWallet: WALLET, txHash });
    });

    it('expires unpaid at expiresAt and gives the daily limit back', async () => {
      const receiver = await activeReceiver();
      await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: null, dailyTransactionLimit: 1, nightTransactionsEnabled: false });
      const order = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 })).json();
      expectErrorBody(await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 }), 422, 'LIMIT_EXCEEDED');
      clock.advance(899_000);
      await drive(1);
      expect((await call('GET', `/orders/${order.id}`)).json().status).toBe('AWAITING_PAYMENT');
      clock.advance(1_000);
      await drive(1);
      expect((await call('GET', `/orders/${order.id}`)).json().status).toBe('EXPIRED');
      expect((await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 })).statusCode).toBe(201);
      clock.set(NOON_SP);
    });

    it('refunds automatically when the transfer fails after payment (REFUNDING → REFUNDED)', async () => {
      const receiver = await activeReceiver();
      const order = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 20 })).json();
      await call('POST', `/sandbox/orders/${order.id}/fail`, { step: 'CHAIN_TRANSFER', reason: 'account frozen' });
      await call('POST', `/sandbox/orders/${order.id}/pix-payment`, {});
      await drive();
      const done = (await call('GET', `/orders/${order.id}`)).json();
      expect(done.status).toBe('REFUNDED');
      expect(done.failureReason).toContain('account frozen');
      const emitted = await events(order.id);
      expect(emitted.map((e) => e.event_type)).toEqual(['order.payment_received', 'order.refunding', 'order.refunded']);
      expect(keysOf(emitted[1]!.payload)).toEqual([...COMMON, 'failureReason'].sort());
      expect(emitted[2]!.payload).toMatchObject({ status: 'REFUNDED', amountBrl: 20 });
      expect(done.transactions.map((tx: Json) => tx.type)).toEqual(['PIX_IN', 'CHAIN_TRANSFER', 'PIX_REFUND']);
    });

    it('refunds a PIX of the wrong amount, and ends FAILED when the refund itself fails', async () => {
      const receiver = await activeReceiver();
      const order = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 30 })).json();
      expect((await call('POST', `/sandbox/orders/${order.id}/pix-payment`, { amountBrl: 29.99 })).json().status).toBe('REFUNDING');
      await ctx.app.services.orderSteps.runDuePass(); // requests the refund
      const failed = await call('POST', `/sandbox/orders/${order.id}/fail`, { step: 'PIX_REFUND', reason: 'account closed' });
      expect(failed.json()).toMatchObject({ status: 'FAILED' });
      expect((await events(order.id)).map((e) => e.event_type)).toEqual(['order.refunding', 'order.failed']);
      const refund = failed.json().transactions.find((tx: Json) => tx.type === 'PIX_REFUND');
      expect(refund).toMatchObject({ status: 'FAILED', amount: 29.99 });
    });

    it('50 concurrent payment notifications give one transition and one event', async () => {
      const receiver = await activeReceiver();
      const order = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 12.34 })).json();
      const responses = await Promise.all(Array.from({ length: 50 }, () => call('POST', `/sandbox/orders/${order.id}/pix-payment`, {})));
      expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
      expect((await events(order.id)).map((e) => e.event_type)).toEqual(['order.payment_received']);
      const pixIn = (await call('GET', `/orders/${order.id}`)).json().transactions.filter((tx: Json) => tx.type === 'PIX_IN');
      expect(pixIn).toHaveLength(1);
    });
  });

  describe('PAYOUT', () => {
    it('goes from a deposit address to COMPLETED with the four events in order', async () => {
      const receiver = await activeReceiver();
      const created = await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC', pixKey: 'Joana@Example.com', pixKeyType: 'EMAIL' });
      expect(created.statusCode, created.body).toBe(201);
      const order = created.json();
      expect(order).toMatchObject({
        type: 'PAYOUT',
        status: 'AWAITING_DEPOSIT',
        sourceToken: 'USDC',
        targetToken: null,
        amountCrypto: 100,
        amountBrl: 540,
        platformFeeAmountBrl: 2.7,
        netAmountBrl: 537.3,
        pixKey: 'joana@example.com',
        recipientName: 'Joana Souza',
        pixPaymentCode: null,
      });
      expect(order.depositAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

      expect((await call('POST', `/sandbox/orders/${order.id}/deposit`, {})).json().status).toBe('DEPOSIT_RECEIVED');
      await drive();
      const done = (await call('GET', `/orders/${order.id}`)).json();
      expect(done.status).toBe('COMPLETED');
      expect(done.transactions.map((tx: Json) => [tx.type, tx.status])).toEqual([
        ['CHAIN_DEPOSIT', 'CONFIRMED'],
        ['PIX_OUT', 'CONFIRMED'],
      ]);
      const emitted = await events(order.id);
      expect(emitted.map((e) => e.event_type)).toEqual(['order.deposit_received', 'order.processing', 'order.pix_sending', 'order.completed']);
      expect(emitted.map((e) => e.payload.status)).toEqual(['DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENDING', 'COMPLETED']);
      expect(keysOf(emitted[0]!.payload)).toEqual([...COMMON, 'amountCrypto', 'txHash'].sort());
      expect(keysOf(emitted[1]!.payload)).toEqual([...COMMON, 'amountBrl', 'pixKey'].sort());
      expect(keysOf(emitted[2]!.payload)).toEqual([...COMMON, 'amountBrl', 'pixKey', 'sandboxTransactionId'].sort());
      expect(emitted[2]!.payload.sandboxTransactionId).toMatch(/^SBX[a-zA-Z0-9]{29}$/);
      expect(keysOf(emitted[3]!.payload)).toEqual([...COMMON, 'amountBrl', 'pixEndToEndId', 'pixKey'].sort());
    });

    it('re-prices a deposit of another amount at the locked rate, and fails one below the minimum', async () => {
      const receiver = await activeReceiver();
      const order = (await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC' })).json();
      const received = (await call('POST', `/sandbox/orders/${order.id}/deposit`, { amountCrypto: 50 })).json();
      expect(received).toMatchObject({ status: 'DEPOSIT_RECEIVED', amountCrypto: 50, amountBrl: 270, platformFeeAmountBrl: 1.35, netAmountBrl: 268.65, exchangeRate: 5.4 });
      const small = (await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC' })).json();
      const failed = (await call('POST', `/sandbox/orders/${small.id}/deposit`, { amountCrypto: 0.1 })).json();
      expect(failed.status).toBe('FAILED');
      expect(failed.failureReason).toContain('less than the minimum');
      expect((await events(small.id)).map((e) => e.event_type)).toEqual(['order.failed']);
    });

    it('pays the receiver’s document as the default PIX key, and fails when the bank refuses the PIX', async () => {
      const receiver = await activeReceiver();
      const order = (await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 5.5, sourceToken: 'USDC' })).json();
      expect(order.pixKey).toBe(receiver.document);
      await call('POST', `/sandbox/orders/${order.id}/deposit`, {});
      await ctx.app.services.orderSteps.runDuePass();
      await ctx.app.services.orderSteps.runDuePass();
      const failed = await call('POST', `/sandbox/orders/${order.id}/fail`, { step: 'PIX_PAYOUT', reason: 'key not found' });
      expect(failed.json()).toMatchObject({ status: 'FAILED', failureReason: 'PIX payout refused: key not found' });
      expect((await events(order.id)).map((e) => e.event_type).at(-1)).toBe('order.failed');
    });
  });

  describe('rules at creation', () => {
    it('limits race: 20 concurrent payins against a daily count of 5 create exactly 5', async () => {
      const receiver = await activeReceiver();
      await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: null, dailyTransactionLimit: 5, nightTransactionsEnabled: false });
      const responses = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 })));
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(5);
      for (const refused of responses.filter((r) => r.statusCode !== 201)) expectErrorBody(refused, 422, 'LIMIT_EXCEEDED');
    });

    it('daily BRL limit counts payins and payouts together', async () => {
      const receiver = await activeReceiver();
      await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: 600, dailyTransactionLimit: null, nightTransactionsEnabled: false });
      expect((await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 100, sourceToken: 'USDC' })).statusCode).toBe(201); // 540 BRL
      expectErrorBody(await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 60.01 }), 422, 'LIMIT_EXCEEDED');
      expect((await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 60 })).statusCode).toBe(201);
    });

    it('night rule: 20:00–06:00 São Paulo needs nightTransactionsEnabled', async () => {
      const receiver = await activeReceiver();
      clock.set('2026-11-24T01:30:00.000Z'); // 22:30 in São Paulo
      try {
        expectErrorBody(await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 }), 422, 'NIGHT_TRANSACTIONS_DISABLED');
        await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: true });
        expect((await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 })).statusCode).toBe(201);
        clock.set('2026-11-24T09:00:00.000Z'); // 06:00: day again
        await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false });
        expect((await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 })).statusCode).toBe(201);
      } finally {
        clock.set(NOON_SP);
      }
    });

    it('receiver must be ACTIVE with approved KYC', async () => {
      const pending = (await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Sem KYC', email: 'k@example.com', walletAddress: WALLET })).json();
      expectErrorBody(await call('POST', '/payin', { receiverId: pending.id, amountBrl: 10 }), 422, 'KYC_NOT_APPROVED');
      const receiver = await activeReceiver();
      await ctx.app.services.receivers.changeStatus(receiver.id, 'suspend', { actor: 'test' });
      expectErrorBody(await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 }), 422, 'RECEIVER_NOT_ACTIVE');
    });

    it('externalId is unique per merchant: 409 with the existing order id', async () => {
      const receiver = await activeReceiver();
      const first = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10, externalId: 'dup-1' })).json();
      const again = expectErrorBody(await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 11, externalId: 'dup-1' }), 409, 'CONFLICT');
      expect(again.details).toEqual({ existingOrderId: first.id });
      const theirs = await activeReceiver({}, other);
      expect((await call('POST', '/payin', { receiverId: theirs.id, amountBrl: 10, externalId: 'dup-1' }, other)).statusCode).toBe(201);
    });

    it.each([
      ['3 decimals of BRL', { amountBrl: 10.001 }, 'body.amountBrl'],
      ['a negative amount', { amountBrl: -5 }, 'body.amountBrl'],
      ['a string amount', { amountBrl: '10' }, 'body.amountBrl'],
      ['below the minimum', { amountBrl: 0.5 }, 'body.amountBrl'],
      ['above the maximum', { amountBrl: 100000.01 }, 'body.amountBrl'],
      ['an unsupported token', { targetToken: 'DOGE' }, 'body.targetToken'],
      ['an unsupported chain', { chain: 'ethereum' }, 'body.chain'],
      ['a bad destination wallet', { destinationWallet: '0x52908400098527886E0F7030069857D2E4169EE7' }, 'body.destinationWallet'],
    ])('refuses a payin with %s (400)', async (_case, override, field) => {
      const receiver = await activeReceiver();
      const response = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10, ...override });
      expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
    });

    it.each([
      ['7 decimals of USDC', { amountCrypto: 1.0000001 }, 'body.amountCrypto'],
      ['a bad phone key', { pixKey: '11999998888', pixKeyType: 'PHONE' }, 'body.pixKey'],
      ['a key without its type', { pixKey: 'a@b.com' }, 'body.pixKeyType'],
    ])('refuses a payout with %s (400)', async (_case, override, field) => {
      const receiver = await activeReceiver();
      const response = await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC', ...override });
      expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
    });

    it('another merchant’s receiver or order is 404', async () => {
      const theirs = await activeReceiver({}, other);
      expectErrorBody(await call('POST', '/payin', { receiverId: theirs.id, amountBrl: 10 }), 404, 'NOT_FOUND');
      const theirOrder = (await call('POST', '/payin', { receiverId: theirs.id, amountBrl: 10 }, other)).json();
      expectErrorBody(await call('GET', `/orders/${theirOrder.id}`), 404, 'NOT_FOUND');
      expectErrorBody(await call('POST', `/sandbox/orders/${theirOrder.id}/pix-payment`, {}), 404, 'NOT_FOUND');
      expectErrorBody(await call('GET', `/orders/${UUID}`), 404, 'NOT_FOUND');
    });
  });

  describe('fees and quotes', () => {
    it('uses the merchant fee of its tier and keeps fees + net = amount', async () => {
      const own = await ctx.createMerchant('Loja Taxada');
      await call('PUT', '/fee-tiers/PAYIN', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.01 }], own);
      const receiver = await activeReceiver({}, own);
      const order = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 333.33 }, own)).json();
      expect(order).toMatchObject({ platformFeePercentage: 0.5, merchantFeePercentage: 1, feePercentage: 1.5, platformFeeAmountBrl: 1.67, merchantFeeAmountBrl: 3.33, netAmountBrl: 328.33 });
      expect(decimal(order.platformFeeAmountBrl).plus(order.merchantFeeAmountBrl).plus(order.netAmountBrl).toNumber()).toBe(333.33);
    });

    it('an order with a quote gets exactly the quote’s figures; expired, reused or mismatched quotes are 422', async () => {
      const receiver = await activeReceiver();
      const quote = (await call('POST', '/quotes', { type: 'PAYIN', amountBrl: 250 })).json();
      expect(quote).toMatchObject({ type: 'PAYIN', chain: 'solana', token: 'USDC', amountBrl: 250, exchangeRate: 5.4, netAmountBrl: 248.75, platformFeeAmountBrl: 1.25 });
      const order = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 250, quoteId: quote.id })).json();
      for (const field of ['amountBrl', 'exchangeRate', 'platformFeeAmountBrl', 'merchantFeeAmountBrl', 'netAmountBrl', 'feePercentage']) {
        expect(order[field], field).toBe(quote[field]);
      }
      expect(order.amountCrypto).toBe(quote.amountCrypto);
      expectErrorBody(await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 250, quoteId: quote.id }), 422, 'QUOTE_INVALID');
      const other250 = (await call('POST', '/quotes', { type: 'PAYIN', amountBrl: 250 })).json();
      expectErrorBody(await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 251, quoteId: other250.id }), 422, 'QUOTE_INVALID');
      clock.advance(31_000);
      expectErrorBody(await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 250, quoteId: other250.id }), 422, 'QUOTE_EXPIRED');
      clock.set(NOON_SP);
    });

    it('quotes in crypto give the smallest amount that reaches it; exactly one amount is required', async () => {
      const quote = (await call('POST', '/quotes', { type: 'PAYIN', amountCrypto: 10 })).json();
      // 54.27 − 0.27 fee = 54.00 = 10 × 5.40; 54.26 would leave 53.99.
      expect(quote).toMatchObject({ amountBrl: 54.27, amountCrypto: 10, platformFeeAmountBrl: 0.27, netAmountBrl: 54 });
      const payout = (await call('POST', '/quotes', { type: 'PAYOUT', amountBrl: 100 })).json();
      expect(payout.netAmountBrl).toBeGreaterThanOrEqual(100);
      expectErrorBody(await call('POST', '/quotes', { type: 'PAYIN' }), 400, 'VALIDATION_ERROR');
      expectErrorBody(await call('POST', '/quotes', { type: 'PAYIN', amountBrl: 10, amountCrypto: 2 }), 400, 'VALIDATION_ERROR');
    });
  });

  describe('GET /orders', () => {
    it('pages newest first with filters; limit over 100 is 400', async () => {
      const own = await ctx.createMerchant('Loja Lista');
      const receiver = await activeReceiver({}, own);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        clock.advance(1000);
        ids.push((await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 + i, externalId: `list-${i}` }, own)).json().id);
      }
      clock.advance(1000);
      const payout = (await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 1, sourceToken: 'USDC' }, own)).json();
      clock.set(NOON_SP);
      const all = (await call('GET', '/orders?limit=2', undefined, own)).json();
      expect(all).toMatchObject({ total: 4, page: 1, limit: 2 });
      expect(all.data.map((o: Json) => o.id)).toEqual([payout.id, ids[2]]);
      expect((await call('GET', '/orders?type=PAYIN', undefined, own)).json().total).toBe(3);
      expect((await call('GET', '/orders?status=AWAITING_DEPOSIT', undefined, own)).json().data.map((o: Json) => o.id)).toEqual([payout.id]);
      expect((await call('GET', '/orders?externalId=list-1', undefined, own)).json().data.map((o: Json) => o.id)).toEqual([ids[1]]);
      expect((await call('GET', `/orders?receiverId=${receiver.id}&page=2&limit=3`, undefined, own)).json().data.map((o: Json) => o.id)).toEqual([ids[0]]);
      const from = new Date(Date.parse(NOON_SP) + 2500).toISOString();
      expect((await call('GET', `/orders?createdFrom=${from}`, undefined, own)).json().total).toBe(2);
      expect((await call('GET', '/orders', undefined, other)).json().data.every((o: Json) => o.merchantId === other.merchantId)).toBe(true);
      expect(expectErrorBody(await call('GET', '/orders?limit=101'), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.limit']);
      expectErrorBody(await call('GET', '/orders?status=DONE'), 400, 'VALIDATION_ERROR');
      // A leap second is valid RFC 3339 but no JavaScript instant: refused, not a 500.
      expect(expectErrorBody(await call('GET', '/orders?createdFrom=2026-01-01T23:59:60Z'), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.createdFrom']);
    });
  });

  describe('sandbox auto-complete (demos)', () => {
    it('pays and deposits by itself for orders older than SANDBOX_AUTO_COMPLETE_SECONDS', async () => {
      const app = await ctx.buildApp({ SANDBOX_AUTO_COMPLETE_SECONDS: '10' });
      const receiver = await activeReceiver();
      const payin = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 10 })).json();
      const payout = (await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 2, sourceToken: 'USDC' })).json();
      await app.services.sandbox.settlePass();
      expect((await call('GET', `/orders/${payin.id}`)).json().status).toBe('AWAITING_PAYMENT');
      clock.advance(10_000);
      for (let i = 0; i < 5; i++) {
        await app.services.sandbox.settlePass();
        await app.services.orderSteps.runDuePass();
      }
      clock.set(NOON_SP);
      expect((await call('GET', `/orders/${payin.id}`)).json().status).toBe('COMPLETED');
      expect((await call('GET', `/orders/${payout.id}`)).json().status).toBe('COMPLETED');
    });
  });

  describe('durability', () => {
    it('an Idempotency-Key retry of POST /payin replays the order instead of creating another', async () => {
      const receiver = await activeReceiver();
      const headers = { 'idempotency-key': `payin-${receiver.id}` };
      const first = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 42 }, merchant, headers);
      const second = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 42 }, merchant, headers);
      expect(second.statusCode).toBe(201);
      expect(second.json().id).toBe(first.json().id);
      expectErrorBody(await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 43 }, merchant, headers), 409, 'IDEMPOTENCY_CONFLICT');
      expect((await call('GET', `/orders?receiverId=${receiver.id}`)).json().total).toBe(1);
    });

    it('a worker killed mid-step leaves the order to the next worker after its lease, with no double effect', async () => {
      const receiver = await activeReceiver();
      const order = (await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 15 })).json();
      await call('POST', `/sandbox/orders/${order.id}/pix-payment`, {});
      // A worker claims the order, then dies before running its step.
      const claimed = await ctx.database.db.transaction().execute((trx) =>
        trx.updateTable('orders').set({ claimed_until: new Date(clock.now().getTime() + 30_000) }).where('id', '=', order.id).returning('id').execute(),
      );
      expect(claimed).toHaveLength(1);
      await ctx.app.services.orderSteps.runDuePass();
      expect((await call('GET', `/orders/${order.id}`)).json().status).toBe('PAYMENT_RECEIVED');
      clock.advance(31_000);
      await drive();
      clock.set(NOON_SP);
      expect((await call('GET', `/orders/${order.id}`)).json().status).toBe('COMPLETED');
      expect((await events(order.id)).map((e) => e.event_type)).toEqual(['order.payment_received', 'order.completed']);
      const transfers = await ctx.database.db.selectFrom('sandbox_chain_transfers').select('idempotency_key').where('idempotency_key', '=', order.id).execute();
      expect(transfers).toHaveLength(1);
    });
  });

  it('every order event emitted above matches its published catalog schema, and all eight were emitted', async () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const catalog = buildCatalog(orderEventDefinitions('sandbox'));
    const rows = (await ctx.database.db.selectFrom('events').select(['event_type', 'payload']).execute()).filter((row) => row.event_type.startsWith('order.'));
    for (const row of rows) {
      const entry = catalog.entries.find((e) => e.name === row.event_type);
      expect(entry, row.event_type).toBeDefined();
      const validate = ajv.compile(entry!.payload);
      const valid = validate({ ...row.payload, deliveryId: 'd' });
      expect(valid, `${row.event_type}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(new Set(rows.map((row) => row.event_type))).toEqual(new Set(catalog.entries.filter((e) => e.category === 'order').map((e) => e.name)));
  });

  it('the order counters behind GET /orders totals agree with the rows after every flow above', async () => {
    const counted = await sql<{ merchant_id: string; type: string; status: string; count: number }>`
      select merchant_id, type, status, count(*)::int as count from orders group by 1, 2, 3 order by 1, 2, 3`.execute(ctx.database.db);
    const counters = await sql<{ merchant_id: string; type: string; status: string; count: number }>`
      select merchant_id, type, status, sum(count)::int as count from merchant_order_counts group by 1, 2, 3 having sum(count) <> 0 order by 1, 2, 3`.execute(ctx.database.db);
    expect(counted.rows.length).toBeGreaterThan(5);
    expect(counters.rows).toEqual(counted.rows);
  });
});
