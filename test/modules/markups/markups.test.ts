/**
 * Partner markup over HTTP (issue 43, item 4): GET/PUT /markups, their refusals and audit; the
 * markup on quotes and orders beside the spec's fee fields (which keep their values); a quote
 * locking the terms it was made with; the ledger's own markup account and the settlement that
 * pays it with the fees. Sandbox drivers; runs on PGlite and, with DATABASE_URL, PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, createTestContext } from '../../helpers/app.ts';
import { type Json, NOON_SP, ledgerFixture } from '../ledger/helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { call, feeMerchant, drive, unbalancedEntries } = ledgerFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());
beforeEach(() => clock.set(NOON_SP));

const markupPostings = (entry: Json) => (entry.postings as Json[]).filter((p) => p.account === 'merchant_markup_payable');

describe('GET and PUT /markups', () => {
  it('a new merchant has none; a PUT sets one order type, is read back, and is audited with what it replaced', async () => {
    const { merchant } = await feeMerchant('Loja Markup Leitura');
    expect((await call('GET', '/markups', merchant)).json()).toEqual([
      { orderType: 'PAYIN', bps: 0, flatBrl: 0, capBrl: null, updatedAt: null },
      { orderType: 'PAYOUT', bps: 0, flatBrl: 0, capBrl: null, updatedAt: null },
    ]);
    const set = await call('PUT', '/markups/PAYIN', merchant, { bps: 50, flatBrl: '1.50', capBrl: 25 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ orderType: 'PAYIN', bps: 50, flatBrl: 1.5, capBrl: 25, updatedAt: clock.now().toISOString() });
    await call('PUT', '/markups/PAYIN', merchant, { bps: 20, flatBrl: 0, capBrl: null });
    const listed = (await call('GET', '/markups', merchant)).json();
    expect(listed[0]).toMatchObject({ orderType: 'PAYIN', bps: 20, flatBrl: 0, capBrl: null });
    expect(listed[1]).toMatchObject({ orderType: 'PAYOUT', bps: 0, updatedAt: null });
    const audit = await ctx.database.db
      .selectFrom('admin_audit_log')
      .select(['action', 'target_id', 'details', 'actor'])
      .where('merchant_id', '=', merchant.merchantId)
      .where('action', '=', 'markups.set')
      .orderBy('created_at')
      .execute();
    expect(audit).toHaveLength(2);
    const details = audit.map((row) => (typeof row.details === 'string' ? JSON.parse(row.details) : row.details));
    expect(details[0]).toMatchObject({ orderType: 'PAYIN', terms: { bps: 50, flatBrl: '1.50', capBrl: '25.00' }, before: null });
    expect(details[1]).toMatchObject({ terms: { bps: 20, flatBrl: '0.00', capBrl: null }, before: { bps: 50, flatBrl: '1.50', capBrl: '25.00' } });
  });

  it.each([
    [{ bps: 1001, flatBrl: 0, capBrl: null }, 'bps'],
    [{ bps: -1, flatBrl: 0, capBrl: null }, 'bps'],
    [{ bps: 1.5, flatBrl: 0, capBrl: null }, 'bps'],
    [{ bps: 10, flatBrl: -1, capBrl: null }, 'flatBrl'],
    [{ bps: 10, flatBrl: '0.001', capBrl: null }, 'flatBrl'],
    [{ bps: 10, flatBrl: 2, capBrl: 1 }, 'capBrl'],
    [{ bps: 10, flatBrl: 2 }, 'capBrl'],
  ])('refuses %o: 400 VALIDATION_ERROR naming %s, nothing stored', async (body, field) => {
    const { merchant } = await feeMerchant(`Loja Recusa ${field} ${JSON.stringify(body)}`);
    const refused = await call('PUT', '/markups/PAYOUT', merchant, body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(refused.json().details)).toContain(field);
    expect((await call('GET', '/markups', merchant)).json()[1].updatedAt).toBeNull();
  });

  it('an unknown order type is a 400, not a 500', async () => {
    const { merchant } = await feeMerchant('Loja Tipo');
    expect((await call('PUT', '/markups/SWAP', merchant, { bps: 1, flatBrl: 0, capBrl: null })).statusCode).toBe(400);
  });
});

describe('markup on quotes, orders, the ledger and the settlement', () => {
  it('a PAYIN: the quote and its order show the markup apart, the fee fields unchanged; the ledger credits the markup account; the settlement pays both', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Markup Payin');
    const plain = (await call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 1000, receiverId })).json();
    expect(plain.markup).toBeNull();
    await call('PUT', '/markups/PAYIN', merchant, { bps: 100, flatBrl: '2.50', capBrl: null });
    const quote = (await call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 1000, receiverId })).json();
    expect(quote.markup).toEqual({ bps: 100, flatBrl: 2.5, capBrl: null, amountBrl: 12.5 });
    // The spec's fields keep their meaning: the same rates and fee amounts as without a markup.
    for (const field of ['feePercentage', 'platformFeePercentage', 'merchantFeePercentage', 'platformFeeAmountBrl', 'merchantFeeAmountBrl']) expect(quote[field], field).toBe(plain[field]);
    expect(quote.netAmountBrl).toBeCloseTo(plain.netAmountBrl - 12.5, 2);
    expect(quote.amountCrypto).toBeLessThan(plain.amountCrypto);

    // A change after the quote does not reach the order that uses it: the quote locked its terms.
    await call('PUT', '/markups/PAYIN', merchant, { bps: 300, flatBrl: 0, capBrl: null });
    const created = await call('POST', '/payin', merchant, { receiverId, amountBrl: 1000, quoteId: quote.id });
    expect(created.statusCode).toBe(201);
    const order = created.json();
    expect(order.markup).toEqual(quote.markup);
    expect(order).toMatchObject({ netAmountBrl: quote.netAmountBrl, amountCrypto: quote.amountCrypto, merchantFeeAmountBrl: quote.merchantFeeAmountBrl });

    await call('POST', `/sandbox/orders/${order.id}/pix-payment`, merchant, {});
    await drive();
    expect((await call('GET', `/orders/${order.id}`, merchant)).json()).toMatchObject({ status: 'COMPLETED', markup: { amountBrl: 12.5 } });
    const entries = (await call('GET', '/ledger/entries', merchant)).json().entries as Json[];
    const completed = entries.find((entry) => entry.kind === 'PAYIN_COMPLETED' && entry.referenceId === order.id)!;
    expect(markupPostings(completed)).toEqual([{ account: 'merchant_markup_payable', owner: 'merchant', currency: 'BRL', amount: '-12.5' }]);
    expect(completed.postings.find((p: Json) => p.account === 'merchant_fees_payable').amount).toBe('-10');
    expect((await call('GET', '/ledger/fees/balance', merchant)).json()).toEqual({ merchantId: merchant.merchantId, balance: '10.00', chargebacksOwed: '0.00', markupBalance: '12.50', currency: 'BRL' });

    clock.advance(1000);
    const settlements = (await call('POST', '/sandbox/settlements/run', merchant, {})).json().settlements;
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({ amountBrl: 22.5, markupBrl: 12.5, entriesCount: 1 });
    const settlementEntry = (await call('GET', '/ledger/entries', merchant)).json().entries.find((entry: Json) => entry.kind === 'SETTLEMENT');
    expect(settlementEntry.postings.map((p: Json) => [p.account, p.amount])).toEqual([
      ['merchant_fees_payable', '10'],
      ['merchant_markup_payable', '12.5'],
      ['merchant_settlements', '-22.5'],
    ]);
    expect((await call('GET', '/ledger/fees/balance', merchant)).json()).toMatchObject({ balance: '0.00', markupBalance: '0.00' });
    expect(await unbalancedEntries()).toEqual([]);
  });

  it('a PAYOUT: the markup comes off the PIX; a quote asked by net BRL still pays that net', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Markup Payout');
    await call('PUT', '/markups/PAYOUT', merchant, { bps: 50, flatBrl: 1, capBrl: 3 });
    const quote = (await call('POST', '/quotes', merchant, { type: 'PAYOUT', amountBrl: 500, receiverId })).json();
    expect(quote.netAmountBrl).toBeGreaterThanOrEqual(500);
    expect(quote.markup).toMatchObject({ bps: 50, flatBrl: 1, capBrl: 3, amountBrl: 3 });
    const sum = quote.platformFeeAmountBrl + quote.merchantFeeAmountBrl + quote.markup.amountBrl + quote.netAmountBrl;
    expect(sum).toBeCloseTo(quote.amountBrl, 2);
  });

  it('a markup that would take a whole order refuses it with a 400 naming the amount; no order is created', async () => {
    const { merchant, receiverId } = await feeMerchant('Loja Markup Grande');
    await call('PUT', '/markups/PAYIN', merchant, { bps: 0, flatBrl: 5000, capBrl: null });
    const quote = await call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 100, receiverId });
    expect(quote.statusCode).toBe(400);
    expect(quote.json()).toMatchObject({ error: 'VALIDATION_ERROR', details: { 'body.amountBrl': expect.stringContaining('markup') } });
    const payin = await call('POST', '/payin', merchant, { receiverId, amountBrl: 100 });
    expect(payin.statusCode).toBe(400);
    expect((await call('GET', '/orders', merchant)).json().data).toHaveLength(0);
  });
});
