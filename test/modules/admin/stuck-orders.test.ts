/**
 * GET /admin/orders/stuck: the operator's queue, made real through the sandbox. A PAYIN whose PIX
 * arrived and a PAYOUT whose PIX was sent, both unchanged past the threshold, and a PAYIN that
 * FAILED holding the customer's PIX are listed, oldest change first, each with its reason and
 * actions; an order in transit that just changed, and ended ones, are not.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { adminHeaders } from '../../helpers/factories.ts';
import type { TestMerchant } from '../../helpers/app.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

const MINUTE = 60_000;
const t = ordersTest();

const admin = async (url: string) => t.ctx.app.inject({ method: 'GET', url: `/api/v1/admin${url}`, headers: adminHeaders });
const status = async (id: string, who: TestMerchant) => (await t.call('GET', `/orders/${id}`, who)).json().status as string;

let paymentReceived: Json;
let pixSent: Json;
let moneyHeld: Json;
let fresh: Json;
let completed: Json;
/** The time the tests read the queue at (ordersTest resets the clock before each test). */
let now: Date;

beforeAll(async () => {
  const { merchant: a, receiver: ra } = await t.merchantWithReceiver('Loja Alfa');
  const { merchant: b, receiver: rb } = await t.merchantWithReceiver('Loja Beta');
  const sandbox = (who: TestMerchant, order: Json, action: string, body: Json = {}) => t.call('POST', `/sandbox/orders/${order.id}/${action}`, who, body);

  // Ended orders: never stuck.
  completed = await t.payin(a, { receiverId: ra.id, amountBrl: 10 });
  await sandbox(a, completed, 'pix-payment');
  await t.drive();

  // A PAYIN whose refund failed: FAILED with the customer's PIX held.
  moneyHeld = await t.payin(a, { receiverId: ra.id, amountBrl: 11 });
  await sandbox(a, moneyHeld, 'failure-injections', { step: 'CHAIN_TRANSFER' });
  await sandbox(a, moneyHeld, 'failure-injections', { step: 'PIX_REFUND' });
  await sandbox(a, moneyHeld, 'pix-payment');
  await t.drive();
  t.clock.advance(MINUTE);

  // A PAYOUT whose PIX is sent and never confirmed (the sandbox bank is not run).
  pixSent = await t.payout(b, { receiverId: rb.id, amountCrypto: 2, sourceToken: 'USDC' });
  await sandbox(b, pixSent, 'deposit');
  await t.ctx.app.services.orderSteps.runDuePass();
  await t.ctx.app.services.orderSteps.runDuePass();
  t.clock.advance(MINUTE);

  // A PAYIN whose PIX arrived, its next step never run (the worker is not run).
  paymentReceived = await t.payin(a, { receiverId: ra.id, amountBrl: 12 });
  await sandbox(a, paymentReceived, 'pix-payment');

  t.clock.advance(31 * MINUTE);
  fresh = await t.payin(b, { receiverId: rb.id, amountBrl: 13 });
  await sandbox(b, fresh, 'pix-payment');

  expect(await status(completed.id, a)).toBe('COMPLETED');
  expect(await status(moneyHeld.id, a)).toBe('FAILED');
  expect(await status(pixSent.id, b)).toBe('PIX_SENT_UNCONFIRMED');
  expect(await status(paymentReceived.id, a)).toBe('PAYMENT_RECEIVED');
  expect(await status(fresh.id, b)).toBe('PAYMENT_RECEIVED');
  now = t.clock.now();
});

beforeEach(() => t.clock.set(now));

describe('GET /admin/orders/stuck', () => {
  it('lists each stuck order once, oldest change first, with its reason and actions; not a fresh one', async () => {
    const response = await admin('/orders/stuck');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.olderThanMinutes).toBe(30);
    expect(body.nextCursor).toBeNull();
    const rows: Json[] = body.data;
    expect(rows.map((row) => row.id)).toEqual([moneyHeld.id, pixSent.id, paymentReceived.id]);
    const [held, sent, received] = rows as [Json, Json, Json];
    expect(held).toMatchObject({ status: 'FAILED', type: 'PAYIN', merchantName: 'Loja Alfa', stuckReason: 'FAILED_WITH_MONEY_HELD', allowedActions: ['REFUND'], moneyHeld: true });
    expect(sent).toMatchObject({ status: 'PIX_SENT_UNCONFIRMED', type: 'PAYOUT', merchantName: 'Loja Beta', stuckReason: 'IN_TRANSIT_TOO_LONG', allowedActions: ['MARK_FAILED'], moneyHeld: false });
    expect(received).toMatchObject({ status: 'PAYMENT_RECEIVED', type: 'PAYIN', stuckReason: 'IN_TRANSIT_TOO_LONG', allowedActions: ['RETRY_STEP'], moneyHeld: false });
    expect(received.stuckForSeconds).toBe(31 * 60);
    expect(sent.stuckForSeconds).toBe(32 * 60);
    expect(held.stuckForSeconds).toBeGreaterThanOrEqual(33 * 60);
  });

  it('takes its threshold from olderThanMinutes: a money-held order is listed whatever its age', async () => {
    expect((await admin('/orders/stuck?olderThanMinutes=1')).json().data.map((row: Json) => row.id)).toEqual([moneyHeld.id, pixSent.id, paymentReceived.id]);
    expect((await admin('/orders/stuck?olderThanMinutes=32')).json().data.map((row: Json) => row.id)).toEqual([moneyHeld.id, pixSent.id]);
    expect((await admin('/orders/stuck?olderThanMinutes=600')).json().data.map((row: Json) => row.id)).toEqual([moneyHeld.id]);
    t.clock.advance(MINUTE);
    expect((await admin('/orders/stuck?olderThanMinutes=1')).json().data.map((row: Json) => row.id)).toContain(fresh.id);
  });

  it('pages by cursor', async () => {
    const first = (await admin('/orders/stuck?limit=2')).json();
    expect(first.data.map((row: Json) => row.id)).toEqual([moneyHeld.id, pixSent.id]);
    expect(first.nextCursor).toBe(pixSent.id);
    const second = (await admin(`/orders/stuck?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.data.map((row: Json) => row.id)).toEqual([paymentReceived.id]);
    expect(second.nextCursor).toBeNull();
  });

  it('takes its default threshold from STUCK_ORDER_MINUTES', async () => {
    const app = await t.ctx.buildApp({ STUCK_ORDER_MINUTES: '32' });
    const body = (await app.inject({ method: 'GET', url: '/api/v1/admin/orders/stuck', headers: adminHeaders })).json();
    expect(body.olderThanMinutes).toBe(32);
  });

  it('refuses a bad threshold or page size with 400', async () => {
    for (const query of ['olderThanMinutes=0', 'olderThanMinutes=abc', 'limit=201', 'cursor=x']) {
      expectErrorBody(await admin(`/orders/stuck?${query}`), 400, 'VALIDATION_ERROR');
    }
  });
});
