/**
 * Factories for the order tests: each test makes the merchant, receiver and orders it needs, so
 * any one of them runs alone (`npx vitest run <file> -t '<name>'`). The clock is a TestClock at
 * noon in São Paulo (outside the night window), reset before every test.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { TestClock, type TestContext, type TestMerchant, createTestContext } from '../../helpers/app.ts';
import { randomCpf } from '../../helpers/documents.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { TreasuryBalanceReader } from '../../../src/adapters/chain/treasury-port.ts';
import { openEventPayload } from '../../../src/platform/event-payload-sealing.ts';

export const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
/** 12:00 in São Paulo: outside the night window. */
export const NOON_SP = '2026-11-23T15:00:00.000Z';
export const UUID = '00000000-0000-7000-8000-000000000000';
/** The fields every order event carries (spec: Common fields of every order event), without deliveryId. */
export const COMMON = ['event', 'externalId', 'orderId', 'status', 'timestamp', 'type'];

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const keysOf = (payload: Json) => Object.keys(payload).sort();

export interface OrdersTest {
  ctx: TestContext;
  clock: TestClock;
  call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, who: TestMerchant, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  merchant(name?: string): Promise<TestMerchant>;
  /** A receiver created by `who` (KYC PENDING, status PENDING). */
  pendingReceiver(who: TestMerchant, extra?: Json): Promise<Json>;
  /** A receiver whose KYC is APPROVED, hence ACTIVE. */
  activeReceiver(who: TestMerchant, extra?: Json): Promise<Json>;
  /** A new merchant with an active receiver. */
  merchantWithReceiver(name?: string): Promise<{ merchant: TestMerchant; receiver: Json }>;
  payin(who: TestMerchant, body: Json): Promise<Json>;
  payout(who: TestMerchant, body: Json): Promise<Json>;
  /** The order's events, oldest first, their payloads opened. */
  events(orderId: string): Promise<Array<{ event_type: string; payload: Json }>>;
  /** Runs the worker and the sandbox banks `passes` times. */
  drive(passes?: number): Promise<void>;
  /**
   * One order of `who` in each ending the sandbox reaches, and one of each type still awaiting
   * money: between them they emit all eight order events. Returns the orders by status.
   */
  everyEnding(who: TestMerchant): Promise<Record<string, Json[]>>;
}

/**
 * Opens a test app on a fresh database for the file, with a clock at NOON_SP before every test;
 * `env` (read when the app is built, after the file's earlier beforeAll hooks) adds settings.
 */
export function ordersTest(env: () => Record<string, string> = () => ({}), options: { treasuryReader?: TreasuryBalanceReader; logger?: FastifyBaseLogger } = {}): OrdersTest {
  const clock = new TestClock(new Date(NOON_SP));
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(env(), { clock, ...options });
  });
  afterAll(() => ctx.close());
  beforeEach(() => clock.set(NOON_SP));

  const call: OrdersTest['call'] = (method, url, who, payload, headers = {}) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: { ...who.headers, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function pendingReceiver(who: TestMerchant, extra: Json = {}): Promise<Json> {
    const created = await call('POST', '/receivers', who, { type: 'PF', document: randomCpf(), name: 'Joana Souza', email: 'joana@example.com', walletAddress: WALLET, ...extra });
    expect(created.statusCode, created.body).toBe(201);
    return created.json();
  }

  async function activeReceiver(who: TestMerchant, extra: Json = {}): Promise<Json> {
    const created = await pendingReceiver(who, extra);
    const approved = await call('POST', `/sandbox/receivers/${created.id}/kyc`, who, { decision: 'APPROVE' });
    expect(approved.json().status).toBe('ACTIVE');
    return approved.json();
  }

  const created = (kind: string) => async (who: TestMerchant, body: Json) => {
    const response = await call('POST', `/${kind}`, who, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Json;
  };

  async function drive(passes = 5) {
    for (let i = 0; i < passes; i++) {
      await ctx.app.services.orderSteps.runDuePass();
      await ctx.app.services.sandbox.settlePass();
    }
  }

  async function everyEnding(who: TestMerchant) {
    const receiver = await activeReceiver(who);
    const payin = (amountBrl: number) => created('payin')(who, { receiverId: receiver.id, amountBrl });
    const payout = (amountCrypto: number) => created('payout')(who, { receiverId: receiver.id, amountCrypto, sourceToken: 'USDC' });
    const sandbox = (order: Json, action: string, body: Json = {}) => call('POST', `/sandbox/orders/${order.id}/${action}`, who, body);
    const expired = await payin(10);
    clock.advance(900_000);
    await drive(1);
    const completedPayin = await payin(11);
    await sandbox(completedPayin, 'pix-payment');
    const refunded = await payin(12);
    await sandbox(refunded, 'fail', { step: 'CHAIN_TRANSFER', reason: 'account frozen' });
    await sandbox(refunded, 'pix-payment');
    const completedPayout = await payout(2);
    await sandbox(completedPayout, 'deposit');
    const refusedPayout = await payout(3);
    await sandbox(refusedPayout, 'deposit');
    const smallDeposit = await payout(4);
    await sandbox(smallDeposit, 'deposit', { amountCrypto: 0.1 });
    // Queue and send the payouts' PIX, so the receiving bank can refuse one before it settles.
    await ctx.app.services.orderSteps.runDuePass();
    await ctx.app.services.orderSteps.runDuePass();
    await sandbox(refusedPayout, 'fail', { step: 'PIX_PAYOUT', reason: 'key not found' });
    await drive();
    const awaiting = [await payin(13), await payout(5)];
    const orders = [expired, completedPayin, refunded, completedPayout, refusedPayout, smallDeposit, ...awaiting];
    const byStatus: Record<string, Json[]> = {};
    for (const order of orders) {
      const current = (await call('GET', `/orders/${order.id}`, who)).json();
      (byStatus[`${current.type} ${current.status}`] ??= []).push(current);
    }
    expect(Object.fromEntries(Object.entries(byStatus).map(([key, list]) => [key, list.length]))).toEqual({
      'PAYIN EXPIRED': 1,
      'PAYIN COMPLETED': 1,
      'PAYIN REFUNDED': 1,
      'PAYIN AWAITING_PAYMENT': 1,
      'PAYOUT COMPLETED': 1,
      'PAYOUT FAILED': 2,
      'PAYOUT AWAITING_DEPOSIT': 1,
    });
    return byStatus;
  }

  return {
    get ctx() {
      return ctx;
    },
    clock,
    call,
    merchant: (name = 'Loja Teste') => ctx.createMerchant(name),
    pendingReceiver,
    activeReceiver,
    async merchantWithReceiver(name = 'Loja Teste') {
      const merchant = await ctx.createMerchant(name);
      return { merchant, receiver: await activeReceiver(merchant) };
    },
    payin: created('payin'),
    payout: created('payout'),
    // Opened as every reader opens them (the outbox seals their personal values: platform/event-payload-sealing.ts).
    events: async (orderId) =>
      (await ctx.database.db.selectFrom('events').select(['event_type', 'payload']).orderBy('created_at').orderBy('id').execute())
        .filter((row) => row.payload.orderId === orderId)
        .map((row) => ({ ...row, payload: openEventPayload(ctx.app.services.personalData, row.payload) as Json })),
    drive,
    everyEnding,
  };
}
