/**
 * GET /ledger/balances against the ledger tables, and the merchant's ledger view (decision 0041):
 * after a completed payin, a payout whose deposit brought an excess, a settlement, an accepted
 * charge-back and orders left at each stage, every figure equals what the ledger and orders
 * tables hold, read by SQL of the test's own; GET /ledger/entries and the order timeline show
 * no platform account, while the back office's order page still does.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { ADMIN_TOKEN, TestClock, type TestContext, type TestMerchant, createTestContext } from '../../helpers/app.ts';
import { type Json, NOON_SP, ledgerFixture } from './helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { call, feeMerchant, drive, completedPayin } = ledgerFixture(() => ctx);
const PLATFORM_ACCOUNTS = ['pix_cash', 'customer_funds_in_transit', 'fx_conversion', 'token_treasury', 'platform_fee_revenue', 'med_returns_payable', 'network_fees', 'account_rent', 'sponsor_sol', 'treasury_capital'];

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());

const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, who: TestMerchant, body?: unknown) => {
  const response = await call(method, url, who, body);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.json() as Json;
};

/** An account's balance for the merchant, per currency, straight from the postings (debits positive). */
async function accountBalances(merchantId: string, code: string) {
  const { rows } = await sql<{ currency: string; sum: string }>`select a.currency, sum(p.amount)::text as sum from ledger_postings p
    join ledger_accounts a on a.id = p.account_id where a.code = ${code} and a.merchant_id = ${merchantId} group by a.currency`.execute(ctx.database.db);
  return new Map(rows.map((row) => [row.currency, decimal(row.sum)]));
}
const brl = async (merchantId: string, code: string) => (await accountBalances(merchantId, code)).get('BRL') ?? decimal(0);

describe('GET /ledger/balances', () => {
  let merchant: TestMerchant;
  let payinIds: string[];

  beforeAll(async () => {
    const fixture = await feeMerchant('Loja Saldos');
    merchant = fixture.merchant;
    const { receiverId } = fixture;
    const first = await completedPayin(merchant, receiverId, 300);
    // A partner markup on the PAYINs from here on (the first's timeline is read below without it).
    await ok('PUT', '/markups/PAYIN', merchant, { bps: 50, flatBrl: '1.50', capBrl: 25 });
    const payout = await ok('POST', '/payout', merchant, { receiverId, amountCrypto: 10, sourceToken: 'USDC' });
    await ok('POST', `/sandbox/orders/${payout.id}/deposit`, merchant, { amountCrypto: '12.5' });
    await drive();
    expect((await ok('GET', `/orders/${payout.id}`, merchant)).status).toBe('COMPLETED');
    clock.advance(1000);
    expect((await ok('POST', '/sandbox/settlements/run', merchant, {})).settlements).toHaveLength(1);
    const claimed = await completedPayin(merchant, receiverId, 40);
    const dispute = await ok('POST', `/sandbox/orders/${claimed.id}/med-claim`, merchant, {});
    await ok('POST', `/sandbox/disputes/${dispute.id}/decision`, merchant, { outcome: 'ACCEPTED' });
    await drive();
    // Fees after the settlement, not settled yet.
    await completedPayin(merchant, receiverId, 120);
    // Left in flight: one payin unpaid, one paid and not driven, one payout awaiting its deposit.
    const unpaid = await ok('POST', '/payin', merchant, { receiverId, amountBrl: 55.5 });
    const paid = await ok('POST', '/payin', merchant, { receiverId, amountBrl: 70 });
    await ok('POST', `/sandbox/orders/${paid.id}/pix-payment`, merchant, {});
    await ok('POST', '/payout', merchant, { receiverId, amountCrypto: 3, sourceToken: 'USDC' });
    payinIds = [first.id, unpaid.id, paid.id];
  });

  it('answers every figure as the ledger and orders tables hold it', async () => {
    const balances = await ok('GET', '/ledger/balances', merchant);
    const id = merchant.merchantId;
    expect(balances.merchantId).toBe(id);
    expect(balances.unsettledFeesBrl).toBe((await brl(id, 'merchant_fees_payable')).negated().toFixed(2));
    expect(balances.unsettledFeesBrl).toBe((await ok('GET', '/ledger/fees/balance', merchant)).balance);
    expect(balances.unsettledMarkupBrl).toBe((await brl(id, 'merchant_markup_payable')).negated().toFixed(2));
    expect(balances.unsettledMarkupBrl).toBe((await ok('GET', '/ledger/fees/balance', merchant)).markupBalance);
    expect(decimal(balances.unsettledMarkupBrl).gt(0)).toBe(true);
    expect(balances.chargebacksOwedBrl).toBe((await brl(id, 'merchant_chargebacks_owed')).toFixed(2));
    expect(balances.chargebacksOwedBrl).toBe('40.00');
    expect(decimal(balances.unsettledFeesBrl).gt(0)).toBe(true);

    const settlements = await ctx.database.db.selectFrom('settlements').select(['id', 'amount_brl', 'created_at']).where('merchant_id', '=', id).execute();
    expect(settlements).toHaveLength(1);
    expect(balances.settlements).toEqual({
      count: 1,
      totalBrl: decimal(settlements[0]!.amount_brl).toFixed(2),
      // No settlement PIX key: nothing is paid yet, so all of it is owed (docs/decisions/0044).
      unpaidBrl: decimal(settlements[0]!.amount_brl).toFixed(2),
      lastAt: new Date(settlements[0]!.created_at).toISOString(),
      latest: expect.objectContaining({ id: settlements[0]!.id, payoutStatus: 'PENDING', pixEndToEndId: null }),
    });
    expect(balances.settlements.unpaidBrl).toBe((await brl(id, 'merchant_settlements')).negated().toFixed(2));

    const held = await accountBalances(id, 'deposits_to_return');
    expect(held.get('USDC')?.toString()).toBe('-2.5');
    expect(balances.excessDepositsHeld).toEqual([{ token: 'USDC', amount: '2.5', orders: 1 }]);

    const { rows } = await sql<{ type: string; status: string; count: number; brl: string; tokens: string }>`select type, status, count(*)::int as count,
      sum(amount_brl)::text as brl, sum(amount_token)::text as tokens from orders where merchant_id = ${id} group by type, status`.execute(ctx.database.db);
    const stage = (type: string, name: string) => balances.inFlight.find((s: Json) => s.type === type && s.stage === name);
    expect(balances.inFlight.map((s: Json) => `${s.type}:${s.stage}`)).toEqual(['PAYIN:AWAITING_PIX', 'PAYIN:PIX_RECEIVED', 'PAYIN:PIX_BEING_RETURNED', 'PAYOUT:AWAITING_DEPOSIT', 'PAYOUT:DEPOSIT_RECEIVED']);
    for (const s of balances.inFlight as Json[]) {
      const matching = rows.filter((row) => row.type === s.type && (s.statuses as string[]).includes(row.status));
      expect(s.count, s.stage).toBe(matching.reduce((sum, row) => sum + row.count, 0));
      expect(s.amountBrl, s.stage).toBe(matching.reduce((sum, row) => sum.plus(row.brl), decimal(0)).toFixed(2));
      const tokens = matching.reduce((sum, row) => sum.plus(row.tokens), decimal(0));
      expect(s.tokens, s.stage).toEqual(matching.length ? [{ token: 'USDC', amount: tokens.toString() }] : []);
    }
    expect([stage('PAYIN', 'AWAITING_PIX').count, stage('PAYIN', 'AWAITING_PIX').amountBrl]).toEqual([1, '55.50']);
    expect([stage('PAYIN', 'PIX_RECEIVED').count, stage('PAYIN', 'PIX_RECEIVED').amountBrl]).toEqual([1, '70.00']);
    expect(stage('PAYOUT', 'AWAITING_DEPOSIT').count).toBe(1);
    expect(stage('PAYOUT', 'AWAITING_DEPOSIT').tokens).toEqual([{ token: 'USDC', amount: '3' }]);
    expect(stage('PAYOUT', 'DEPOSIT_RECEIVED')).toMatchObject({ count: 0, amountBrl: '0.00', tokens: [] });
  });

  it("is the merchant's own: another merchant sees zeros", async () => {
    const other = await ctx.createMerchant('Loja Vazia');
    const balances = await ok('GET', '/ledger/balances', other);
    expect(balances).toMatchObject({ unsettledFeesBrl: '0.00', chargebacksOwedBrl: '0.00', settlements: { count: 0, totalBrl: '0.00', lastAt: null }, excessDepositsHeld: [] });
    expect((balances.inFlight as Json[]).every((s) => s.count === 0 && s.amountBrl === '0.00' && s.tokens.length === 0)).toBe(true);
  });

  it('GET /ledger/entries lists only entries on the merchant\'s accounts, with only their legs', async () => {
    const listed = await ok('GET', '/ledger/entries?limit=100', merchant);
    const postings = (listed.entries as Json[]).flatMap((e) => e.postings as Json[]);
    expect(postings.length).toBeGreaterThan(0);
    expect(postings.every((p) => p.owner === 'merchant' && !PLATFORM_ACCOUNTS.includes(p.account))).toBe(true);
    expect((listed.entries as Json[]).every((e) => e.postings.length > 0)).toBe(true);
    const { rows } = await sql<{ count: number }>`select count(distinct e.id)::int as count from ledger_entries e join ledger_postings p on p.entry_id = e.id
      join ledger_accounts a on a.id = p.account_id where e.merchant_id = ${merchant.merchantId} and a.merchant_id is not null`.execute(ctx.database.db);
    expect(listed.pagination.total).toBe(rows[0]!.count);
    expect(listed.entries).toHaveLength(rows[0]!.count);
    // The movements with no merchant leg are the platform's: not listed.
    expect((listed.entries as Json[]).map((e) => e.kind)).not.toContain('PAYIN_PIX_RECEIVED');
    expect((listed.entries as Json[]).map((e) => e.kind)).toEqual(expect.arrayContaining(['PAYIN_COMPLETED', 'PAYOUT_DEPOSIT_RECEIVED', 'SETTLEMENT', 'DISPUTE_CHARGEBACK']));
    const unsettled = await ok('GET', '/ledger/entries?settled=false&limit=100', merchant);
    expect((unsettled.entries as Json[]).flatMap((e) => e.postings as Json[]).every((p) => p.owner === 'merchant')).toBe(true);
  });

  it("the order timeline shows the merchant's legs; the back office's order page all of them", async () => {
    const ledgerOf = (entries: Json[]) => entries.filter((e) => e.kind === 'LEDGER_ENTRY').map((e) => e.ledgerEntry as Json);
    const merchantView = ledgerOf((await ok('GET', `/orders/${payinIds[0]}/timeline`, merchant)).entries);
    expect(merchantView.map((e) => e.kind)).toEqual(['PAYIN_COMPLETED']);
    expect(merchantView[0]!.postings).toEqual([{ account: 'merchant_fees_payable', owner: 'merchant', currency: 'BRL', amount: '-3' }]);
    const admin = await ctx.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${payinIds[0]}`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(admin.statusCode, admin.body).toBe(200);
    const full = ledgerOf(admin.json().timeline);
    expect(full.map((e) => e.kind)).toEqual(['PAYIN_PIX_RECEIVED', 'PAYIN_COMPLETED']);
    expect(full.flatMap((e) => e.postings as Json[]).map((p) => p.account)).toEqual(expect.arrayContaining(['pix_cash', 'token_treasury', 'fx_conversion']));
  });
});
