/**
 * Fee settlements (GET /ledger/fees/balance, GET /ledger/settlements, the sandbox and admin
 * runs, the daily job): a completed payin's merchant fee is the balance until a run settles
 * it; concurrent runs make one settlement; paging; the job's São Paulo midnight cutoff.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { settlementJob } from '../../../src/modules/ledger/job.ts';
import { ADMIN_TOKEN, TestClock, type TestContext, createTestContext } from '../../helpers/app.ts';
import { type Json, NOON_SP, ledgerFixture } from './helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { call, feeMerchant, completedPayin } = ledgerFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());
beforeEach(() => clock.set(NOON_SP));

describe('settlements', () => {
  it('must show: a completed payin’s merchant fee is the balance; a settlement run lists it and zeroes the balance', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Saldo');
    expect((await call('GET', '/ledger/fees/balance', merchant)).json()).toEqual({ merchantId: merchant.merchantId, balance: '0.00', chargebacksOwed: '0.00', markupBalance: '0.00', currency: 'BRL' });
    const order = await completedPayin(merchant, receiverId, 250);
    expect(order).toMatchObject({ status: 'COMPLETED', merchantFeeAmountBrl: 2.5 });
    expect((await call('GET', '/ledger/fees/balance', merchant)).json()).toEqual({ merchantId: merchant.merchantId, balance: '2.50', chargebacksOwed: '0.00', markupBalance: '0.00', currency: 'BRL' });

    clock.advance(1000);
    // No body at all: every field of this body is optional.
    const run = await call('POST', '/sandbox/settlements/run', merchant);
    expect(run.json().settlements).toHaveLength(1);
    const listed = (await call('GET', '/ledger/settlements', merchant)).json();
    expect(listed.pagination).toEqual({ page: 1, pageSize: 20, total: 1, totalPages: 1 });
    expect(listed.settlements[0]).toMatchObject({ merchantId: merchant.merchantId, amountBrl: 2.5, entriesCount: 1, periodEnd: clock.now().toISOString() });
    expect((await call('GET', '/ledger/fees/balance', merchant)).json().balance).toBe('0.00');
    clock.set(NOON_SP);
  });

  it('two concurrent settlement runs produce one settlement; a run with nothing to close creates nothing', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Concorrente');
    await completedPayin(merchant, receiverId, 100);
    await completedPayin(merchant, receiverId, 200);
    clock.advance(1000);
    const runs = await Promise.all([
      ctx.app.services.ledger.settleMerchant(merchant.merchantId, clock.now()),
      ctx.app.services.ledger.settleMerchant(merchant.merchantId, clock.now()),
      ctx.app.inject({ method: 'POST', url: '/api/v1/admin/settlements/run', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { merchantId: merchant.merchantId } }),
    ]);
    const created = [runs[0], runs[1], ...(runs[2].json().settlements as Json[])].filter(Boolean);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ amountBrl: 3, entriesCount: 2 });
    clock.advance(1000);
    expect((await call('POST', '/sandbox/settlements/run', merchant, {})).json().settlements).toEqual([]);
    expect((await call('GET', '/ledger/settlements', merchant)).json().pagination.total).toBe(1);
    expect((await call('GET', '/ledger/entries?settled=true', merchant)).json().entries.map((e: Json) => e.kind)).toEqual(['PAYIN_COMPLETED', 'PAYIN_COMPLETED']);
    clock.set(NOON_SP);
  });

  it('pages settlements newest first', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Paginas');
    for (let i = 0; i < 3; i++) {
      await completedPayin(merchant, receiverId, 10 + i);
      clock.advance(60_000);
      await call('POST', '/sandbox/settlements/run', merchant, {});
    }
    clock.set(NOON_SP);
    const page2 = (await call('GET', '/ledger/settlements?page=2&limit=2', merchant)).json();
    expect(page2.pagination).toEqual({ page: 2, pageSize: 2, total: 3, totalPages: 2 });
    expect(page2.settlements).toHaveLength(1);
    expect(page2.settlements[0].amountBrl).toBe(0.1);
    const first = (await call('GET', '/ledger/settlements?pageSize=1', merchant)).json().settlements[0];
    expect(first.amountBrl).toBe(0.12);
  });

  it('the daily job settles up to the latest 00:00 in São Paulo, once', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Diaria');
    await completedPayin(merchant, receiverId, 100); // 12:00 on the 23rd, São Paulo
    const job = settlementJob(ctx.app.services.ledger, '00:00', clock);
    const controller = new AbortController();
    clock.set('2026-11-24T02:59:00.000Z'); // 23:59 on the 23rd: not yet
    await job.run(controller.signal);
    expect((await call('GET', '/ledger/settlements', merchant)).json().pagination.total).toBe(0);
    clock.set('2026-11-24T03:01:00.000Z'); // 00:01 on the 24th
    await job.run(controller.signal);
    await job.run(controller.signal);
    const listed = (await call('GET', '/ledger/settlements', merchant)).json();
    expect(listed.settlements).toHaveLength(1);
    expect(listed.settlements[0]).toMatchObject({ periodEnd: '2026-11-24T03:00:00.000Z', amountBrl: 1 });
    clock.set(NOON_SP);
  });
});
