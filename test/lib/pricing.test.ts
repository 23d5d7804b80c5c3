import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal } from '../../src/lib/money.ts';
import { payinAmountForToken, pricePayin, pricePayout, payoutTokenForNetBrl } from '../../src/lib/pricing.ts';

const rates = { platformFeePercentage: '0.005', merchantFeePercentage: '0.01' };
const centavos = fc.integer({ min: 1, max: 10_000_000_00 }).map((c) => (c / 100).toFixed(2));
const rateText = fc.integer({ min: 100, max: 99_999 }).map((r) => (r / 100).toFixed(2));
const feeFraction = fc.integer({ min: 0, max: 50_000 }).map((f) => decimal(f).dividedBy(1_000_000).toString());
const feeRates = fc.record({ platformFeePercentage: feeFraction, merchantFeePercentage: feeFraction });
const micro = fc.integer({ min: 1, max: 1_000_000_000_000 }).map((m) => decimal(m).dividedBy(1_000_000).toFixed(6));

describe('pricing', () => {
  it('prices a payin: fees half-even, token rounded down', () => {
    expect(pricePayin({ amountBrl: '100.00', exchangeRate: '5.40', tokenDecimals: 6, rates })).toEqual({
      amountBrl: '100.00',
      amountToken: '18.240740',
      exchangeRate: '5.4',
      platformFeeAmountBrl: '0.50',
      merchantFeeAmountBrl: '1.00',
      netAmountBrl: '98.50',
    });
    // 0.005 × 1.30 = 0.0065 → 0.01 (half-even rounds 0.65 centavo to 1); 0.01 × 1.30 = 0.013 → 0.01
    expect(pricePayin({ amountBrl: '1.30', exchangeRate: '5.40', tokenDecimals: 6, rates })).toMatchObject({ platformFeeAmountBrl: '0.01', merchantFeeAmountBrl: '0.01', netAmountBrl: '1.28' });
    // Half-even: 0.005 × 1.00 = 0.005 → 0.00 (tie to even), 0.005 × 3.00 = 0.015 → 0.02
    expect(pricePayin({ amountBrl: '1.00', exchangeRate: '5', tokenDecimals: 6, rates: { platformFeePercentage: '0.005', merchantFeePercentage: '0' } }).platformFeeAmountBrl).toBe('0.00');
    expect(pricePayin({ amountBrl: '3.00', exchangeRate: '5', tokenDecimals: 6, rates: { platformFeePercentage: '0.005', merchantFeePercentage: '0' } }).platformFeeAmountBrl).toBe('0.02');
  });

  it('prices a payout: gross rounded down to centavos, fees on gross', () => {
    expect(pricePayout({ amountToken: '10.123456', exchangeRate: '5.40', tokenDecimals: 6, rates })).toEqual({
      amountBrl: '54.66',
      amountToken: '10.123456',
      exchangeRate: '5.4',
      platformFeeAmountBrl: '0.27',
      merchantFeeAmountBrl: '0.55',
      netAmountBrl: '53.84',
    });
  });

  it('payin: fees + net = amount to the centavo, and the token never exceeds net ÷ rate', () => {
    fc.assert(
      fc.property(centavos, rateText, feeRates, (amountBrl, exchangeRate, r) => {
        const p = pricePayin({ amountBrl, exchangeRate, tokenDecimals: 6, rates: r });
        expect(decimal(p.platformFeeAmountBrl).plus(p.merchantFeeAmountBrl).plus(p.netAmountBrl).toFixed(2)).toBe(amountBrl);
        const exact = decimal(p.netAmountBrl).dividedBy(exchangeRate);
        expect(decimal(p.amountToken).lte(exact)).toBe(true);
        expect(exact.minus(p.amountToken).lt('0.000001')).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('payout: fees + net = gross, and gross never exceeds crypto × rate', () => {
    fc.assert(
      fc.property(micro, rateText, feeRates, (amountToken, exchangeRate, r) => {
        const p = pricePayout({ amountToken, exchangeRate, tokenDecimals: 6, rates: r });
        expect(decimal(p.platformFeeAmountBrl).plus(p.merchantFeeAmountBrl).plus(p.netAmountBrl).toFixed(2)).toBe(p.amountBrl);
        const exact = decimal(amountToken).times(exchangeRate);
        expect(decimal(p.amountBrl).lte(exact) && exact.minus(p.amountBrl).lt('0.01')).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('inverse quotes are the smallest amounts that reach the target', () => {
    fc.assert(
      fc.property(micro, rateText, feeRates, (amountToken, exchangeRate, r) => {
        const p = payinAmountForToken({ amountToken, exchangeRate, tokenDecimals: 6, rates: r });
        expect(decimal(p.amountToken).gte(amountToken)).toBe(true);
        const oneLess = decimal(p.amountBrl).minus('0.01');
        if (oneLess.gt(0)) {
          expect(decimal(pricePayin({ amountBrl: oneLess.toFixed(2), exchangeRate, tokenDecimals: 6, rates: r }).amountToken).lt(amountToken)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(centavos, rateText, feeRates, (netAmountBrl, exchangeRate, r) => {
        const p = payoutTokenForNetBrl({ netAmountBrl, exchangeRate, tokenDecimals: 6, rates: r });
        expect(decimal(p.netAmountBrl).gte(netAmountBrl)).toBe(true);
        const oneLess = decimal(p.amountToken).minus('0.000001');
        expect(decimal(pricePayout({ amountToken: oneLess.toFixed(6), exchangeRate, tokenDecimals: 6, rates: r }).netAmountBrl).lt(netAmountBrl)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
