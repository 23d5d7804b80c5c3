/**
 * The ledger across merchants and roles: another merchant sees none of a merchant's entries,
 * settlements or fee balance; the ledger routes need credentials; the settlement run of every
 * merchant is for operators only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { NOON_SP, ledgerFixture } from './helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { call, feeMerchant, completedPayin } = ledgerFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());
beforeEach(() => clock.set(NOON_SP));

describe('isolation', () => {
  it("keeps merchants apart: another merchant sees none of a merchant's settlements, entries or fee balance", async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Paginas');
    const other = await ctx.createMerchant('Loja Outra');
    await completedPayin(merchant, receiverId, 10);
    clock.advance(60_000);
    await call('POST', '/sandbox/settlements/run', merchant, {});
    await completedPayin(merchant, receiverId, 11);
    // The merchant itself sees its own: a settlement, the entries, and the unsettled fee.
    expect((await call('GET', '/ledger/settlements', merchant)).json().pagination.total).toBe(1);
    expect((await call('GET', '/ledger/entries', merchant)).json().entries.length).toBeGreaterThan(0);
    expect((await call('GET', '/ledger/fees/balance', merchant)).json().balance).toBe('0.11');

    expect((await call('GET', '/ledger/settlements', other)).json()).toEqual({ settlements: [], pagination: { page: 1, pageSize: 20, total: 0, totalPages: 0 } });
    expect((await call('GET', '/ledger/entries', other)).json().entries).toEqual([]);
    expect((await call('GET', '/ledger/fees/balance', other)).json().balance).toBe('0.00');
  });
});

describe('authentication', () => {
  it('the ledger routes without credentials are 401', async () => {
    for (const url of ['/ledger/fees/balance', '/ledger/settlements', '/ledger/entries']) {
      expectErrorBody(await ctx.app.inject({ method: 'GET', url: `/api/v1${url}` }), 401, 'UNAUTHORIZED');
    }
    expectErrorBody(await ctx.app.inject({ method: 'POST', url: '/api/v1/sandbox/settlements/run', payload: {} }), 401, 'UNAUTHORIZED');
  });

  it("a merchant's credentials are 403 on the admin settlement run, which settles nothing", async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Curiosa');
    await completedPayin(merchant, receiverId, 100);
    clock.advance(1000);
    const response = await ctx.app.inject({ method: 'POST', url: '/api/v1/admin/settlements/run', headers: merchant.headers, payload: { merchantId: merchant.merchantId } });
    expectErrorBody(response, 403, 'FORBIDDEN');
    expect((await call('GET', '/ledger/settlements', merchant)).json().pagination.total).toBe(0);
    expect((await call('GET', '/ledger/fees/balance', merchant)).json().balance).toBe('1.00');
  });
});
