/**
 * Operators' reads of merchants through the app: one merchant's people and fee tiers (as the
 * merchant sees them), and the merchant fees awaiting settlement across merchants, the largest
 * first. An unknown merchant is 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { callAs, callAsAdmin, setMerchantFee } from '../../helpers/factories.ts';
import { peopleOf } from '../../helpers/people.ts';
import { NOON_SP, ledgerFixture } from '../ledger/helpers.ts';
import { SOME_ID } from './helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { completedPayin, feeMerchant } = ledgerFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());

describe('GET /admin/merchants/{id}/users', () => {
  it("lists the merchant's people as GET /users shows them, never a secret; another merchant's are not there", async () => {
    const merchant = await ctx.createMerchant('Gente Ltda');
    const other = await ctx.createMerchant('Outra Ltda');
    const people = peopleOf(ctx.app, merchant.merchantId, clock, 'reads');
    const manager = await people.manager('ADMIN');
    await ctx.app.services.users.create(merchant.merchantId, { email: 'viewer@gente.example', role: 'VIEWER', password: 'a long enough test password' });
    await ctx.app.services.users.create(other.merchantId, { email: 'someone@outra.example', role: 'OWNER', password: 'a long enough test password' });

    const response = await callAsAdmin(ctx, 'GET', `/merchants/${merchant.merchantId}/users`);
    expect(response.statusCode, response.body).toBe(200);
    const users = response.json();
    expect(users).toEqual([
      { id: manager.id, merchantId: merchant.merchantId, email: manager.email, role: 'ADMIN', totpEnabled: true, createdAt: expect.any(String) },
      { id: expect.any(String), merchantId: merchant.merchantId, email: 'viewer@gente.example', role: 'VIEWER', totpEnabled: false, createdAt: expect.any(String) },
    ]);
    // The same list the merchant's own GET /users answers.
    expect((await people.call('GET', '/users', people.as(manager))).json()).toEqual(users);
    expect(response.body).not.toMatch(/password|totp_secret|\$argon2/i);

    expect((await callAsAdmin(ctx, 'GET', `/merchants/${other.merchantId}/users`)).json().map((u: { email: string }) => u.email)).toEqual(['someone@outra.example']);
  });

  it('a merchant without people is an empty list; an unknown merchant 404, a malformed id 400', async () => {
    const lonely = await ctx.createMerchant('Sem Gente');
    expect((await callAsAdmin(ctx, 'GET', `/merchants/${lonely.merchantId}/users`)).json()).toEqual([]);
    expectErrorBody(await callAsAdmin(ctx, 'GET', `/merchants/${SOME_ID}/users`), 404, 'NOT_FOUND');
    expectErrorBody(await callAsAdmin(ctx, 'GET', '/merchants/nope/users'), 400, 'VALIDATION_ERROR');
  });
});

describe('GET /admin/merchants/{id}/fee-tiers', () => {
  it("answers the merchant's tiers exactly as GET /fee-tiers shows them, with the orderType filter", async () => {
    const merchant: TestMerchant = await ctx.createMerchant('Tarifas Ltda');
    await setMerchantFee(ctx, merchant, 'PAYOUT', 0.0125);
    const own = (await callAs(ctx, merchant, 'GET', '/fee-tiers')).json();
    const response = await callAsAdmin(ctx, 'GET', `/merchants/${merchant.merchantId}/fee-tiers`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual(own);
    const payouts = (await callAsAdmin(ctx, 'GET', `/merchants/${merchant.merchantId}/fee-tiers?orderType=PAYOUT`)).json();
    expect(payouts).toEqual(own.filter((tier: { orderType: string }) => tier.orderType === 'PAYOUT'));
    expect(payouts).toEqual([expect.objectContaining({ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.0125 })]);
  });

  it('an unknown merchant is 404; a bad orderType 400', async () => {
    expectErrorBody(await callAsAdmin(ctx, 'GET', `/merchants/${SOME_ID}/fee-tiers`), 404, 'NOT_FOUND');
    const merchant = await ctx.createMerchant('Filtro Ltda');
    expectErrorBody(await callAsAdmin(ctx, 'GET', `/merchants/${merchant.merchantId}/fee-tiers?orderType=SWAP`), 400, 'VALIDATION_ERROR');
  });
});

describe('GET /admin/settlements/due', () => {
  it('lists per merchant the fees a run would settle now, the largest first, as decimal text; a settled merchant leaves the list', async () => {
    clock.set(NOON_SP);
    const small = await feeMerchant('Pequena');
    const large = await feeMerchant('Grande');
    await completedPayin(small.merchant, small.receiverId, 100);
    await completedPayin(large.merchant, large.receiverId, 250);
    await completedPayin(large.merchant, large.receiverId, 123.45);
    clock.advance(1000);

    const response = await callAsAdmin(ctx, 'GET', '/settlements/due');
    expect(response.statusCode, response.body).toBe(200);
    const due = response.json();
    expect(due).toEqual({
      asOf: clock.now().toISOString(),
      merchants: 2,
      totalBrl: '4.73',
      data: [
        { merchantId: large.merchant.merchantId, merchantName: 'Grande', amountBrl: '3.73', markupBrl: '0.00', chargebacksOwedBrl: '0.00', entries: 2, oldestEntryAt: expect.any(String) },
        { merchantId: small.merchant.merchantId, merchantName: 'Pequena', amountBrl: '1.00', markupBrl: '0.00', chargebacksOwedBrl: '0.00', entries: 1, oldestEntryAt: expect.any(String) },
      ],
    });
    // The same amount the merchant reads as its fee balance.
    expect((await callAs(ctx, large.merchant, 'GET', '/ledger/fees/balance')).json().balance).toBe('3.73');
    // limit shows the first; the totals still count every merchant.
    expect((await callAsAdmin(ctx, 'GET', '/settlements/due?limit=1')).json()).toMatchObject({ merchants: 2, totalBrl: '4.73', data: [{ merchantName: 'Grande' }] });

    const run = await callAsAdmin(ctx, 'POST', '/settlements/run', { merchantId: large.merchant.merchantId });
    expect(run.statusCode, run.body).toBe(200);
    expect((await callAsAdmin(ctx, 'GET', '/settlements/due')).json()).toMatchObject({ merchants: 1, totalBrl: '1.00', data: [{ merchantName: 'Pequena' }] });
  });

  it('shows the partner markup apart (markupBrl), inside amountBrl as the run pays it', async () => {
    const marked = await feeMerchant('Com Markup');
    expect((await callAs(ctx, marked.merchant, 'PUT', '/markups/PAYIN', { bps: 100, flatBrl: '0.50', capBrl: null })).statusCode).toBe(200);
    await completedPayin(marked.merchant, marked.receiverId, 200);
    clock.advance(1000);
    const row = ((await callAsAdmin(ctx, 'GET', '/settlements/due?limit=100')).json().data as Array<Record<string, unknown>>).find((r) => r.merchantId === marked.merchant.merchantId);
    // 1 % merchant fee of 200.00 is 2.00; the markup 1 % of 200.00 plus 0.50 is 2.50; a run pays both.
    expect(row).toMatchObject({ amountBrl: '4.50', markupBrl: '2.50', chargebacksOwedBrl: '0.00', entries: 1 });
    const balance = (await callAs(ctx, marked.merchant, 'GET', '/ledger/fees/balance')).json();
    expect(balance).toMatchObject({ balance: '2.00', markupBalance: '2.50' });
    const run = await callAsAdmin(ctx, 'POST', '/settlements/run', { merchantId: marked.merchant.merchantId });
    expect(run.json().settlements[0]).toMatchObject({ amountBrl: 4.5, markupBrl: 2.5 });
  });

  it('refuses a limit out of 1..100 (400)', async () => {
    for (const query of ['?limit=0', '?limit=101', '?other=1']) expectErrorBody(await callAsAdmin(ctx, 'GET', `/settlements/due${query}`), 400, 'VALIDATION_ERROR');
  });
});
