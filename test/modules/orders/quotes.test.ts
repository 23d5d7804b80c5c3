/**
 * POST /quotes and the fees of orders: tier fees with fees + net = amount, an order that names a
 * quote gets exactly its figures, and expired, reused or mismatched quotes are refused.
 */
import { describe, expect, it } from 'vitest';
import { decimal } from '../../../src/lib/money.ts';
import { expectErrorBody } from '../../helpers/app.ts';
import { ordersTest } from './helpers.ts';

describe('fees and quotes', () => {
  const t = ordersTest();

  it('uses the merchant fee of its tier and keeps fees + net = amount', async () => {
    const own = await t.merchant('Loja Taxada');
    await t.call('PUT', '/fee-tiers/PAYIN', own, [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.01 }]);
    const receiver = await t.activeReceiver(own);
    const order = await t.payin(own, { receiverId: receiver.id, amountBrl: 333.33 });
    expect(order).toMatchObject({ platformFeePercentage: 0.005, merchantFeePercentage: 0.01, feePercentage: 0.015, platformFeeAmountBrl: 1.67, merchantFeeAmountBrl: 3.33, netAmountBrl: 328.33 });
    expect(decimal(order.platformFeeAmountBrl).plus(order.merchantFeeAmountBrl).plus(order.netAmountBrl).toNumber()).toBe(333.33);
  });

  it('an order with a quote gets exactly the quote’s figures; expired, reused or mismatched quotes are 422', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const quote = (await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 250 })).json();
    expect(quote).toMatchObject({ type: 'PAYIN', chain: 'solana', token: 'USDC', amountBrl: 250, exchangeRate: 5.4, netAmountBrl: 248.75, platformFeeAmountBrl: 1.25 });
    const order = await t.payin(merchant, { receiverId: receiver.id, amountBrl: 250, quoteId: quote.id });
    for (const field of ['amountBrl', 'exchangeRate', 'platformFeeAmountBrl', 'merchantFeeAmountBrl', 'netAmountBrl', 'feePercentage']) {
      expect(order[field], field).toBe(quote[field]);
    }
    expect(order.amountCrypto).toBe(quote.amountCrypto);
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 250, quoteId: quote.id }), 422, 'QUOTE_INVALID');
    const other250 = (await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 250 })).json();
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 251, quoteId: other250.id }), 422, 'QUOTE_INVALID');
    t.clock.advance(31_000);
    expectErrorBody(await t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 250, quoteId: other250.id }), 422, 'QUOTE_EXPIRED');
  });

  it('a PAYOUT with a quote gets its figures; another merchant’s quote is 404', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const quote = (await t.call('POST', '/quotes', merchant, { type: 'PAYOUT', amountCrypto: 10, receiverId: receiver.id })).json();
    const order = await t.payout(merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC', quoteId: quote.id });
    for (const field of ['amountBrl', 'amountCrypto', 'exchangeRate', 'platformFeeAmountBrl', 'netAmountBrl']) expect(order[field], field).toBe(quote[field]);
    const other = await t.merchantWithReceiver('Loja B');
    const theirs = (await t.call('POST', '/quotes', other.merchant, { type: 'PAYOUT', amountCrypto: 10 })).json();
    expectErrorBody(await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC', quoteId: theirs.id }), 404, 'NOT_FOUND');
  });

  it('quotes in crypto give the smallest amount that reaches it; exactly one amount is required', async () => {
    const merchant = await t.merchant();
    const quote = (await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountCrypto: 10 })).json();
    // 54.27 − 0.27 fee = 54.00 = 10 × 5.40; 54.26 would leave 53.99.
    expect(quote).toMatchObject({ amountBrl: 54.27, amountCrypto: 10, platformFeeAmountBrl: 0.27, netAmountBrl: 54 });
    const payout = (await t.call('POST', '/quotes', merchant, { type: 'PAYOUT', amountBrl: 100 })).json();
    expect(payout.netAmountBrl).toBeGreaterThanOrEqual(100);
    expectErrorBody(await t.call('POST', '/quotes', merchant, { type: 'PAYIN' }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await t.call('POST', '/quotes', merchant, { type: 'PAYIN', amountBrl: 10, amountCrypto: 2 }), 400, 'VALIDATION_ERROR');
  });
});
