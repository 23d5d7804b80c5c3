import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, decimal } from '../../src/lib/money.ts';
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
      markupAmountBrl: '0.00',
    });
    // 0.005 × 1.30 = 0.0065 → 0.01 (half-even rounds 0.65 centavo to 1); 0.01 × 1.30 = 0.013 → 0.01
    expect(pricePayin({ amountBrl: '1.30', exchangeRate: '5.40', tokenDecimals: 6, rates })).toMatchObject({ platformFeeAmountBrl: '0.01', merchantFeeAmountBrl: '0.01', netAmountBrl: '1.28' });
    // Half-even: 0.005 × 1.00 = 0.005 → 0.00 (tie to even), 0.005 × 3.00 = 0.015 → 0.02
    expect(pricePayin({ amountBrl: '1.00', exchangeRate: '5', tokenDecimals: 6, rates: { platformFeePercentage: '0.005', merchantFeePercentage: '0' } }).platformFeeAmountBrl).toBe('0.00');
    expect(pricePayin({ amountBrl: '3.00', exchangeRate: '5', tokenDecimals: 6, rates: { platformFeePercentage: '0.005', merchantFeePercentage: '0' } }).platformFeeAmountBrl).toBe('0.02');
  });

  it('rounds the merchant fee half-even too, on a payin and on a payout (exact half centavos)', () => {
    const merchantOnly = { platformFeePercentage: '0', merchantFeePercentage: '0.005' };
    const platformOnly = { platformFeePercentage: '0.005', merchantFeePercentage: '0' };
    // 0.005 × amount: 0.005 → 0.00, 0.015 → 0.02, 0.025 → 0.02, 0.035 → 0.04 (ties go to the even centavo).
    for (const [amountBrl, fee] of [['1.00', '0.00'], ['3.00', '0.02'], ['5.00', '0.02'], ['7.00', '0.04']] as const) {
      expect(pricePayin({ amountBrl, exchangeRate: '1', tokenDecimals: 6, rates: merchantOnly }), amountBrl).toMatchObject({ merchantFeeAmountBrl: fee, platformFeeAmountBrl: '0.00' });
      expect(pricePayin({ amountBrl, exchangeRate: '1', tokenDecimals: 6, rates: platformOnly }).platformFeeAmountBrl, amountBrl).toBe(fee);
      expect(pricePayout({ amountToken: amountBrl, exchangeRate: '1', tokenDecimals: 6, rates: merchantOnly }), amountBrl).toMatchObject({ amountBrl, merchantFeeAmountBrl: fee });
    }
  });

  it('prices a payout: gross rounded down to centavos, fees on gross', () => {
    expect(pricePayout({ amountToken: '10.123456', exchangeRate: '5.40', tokenDecimals: 6, rates })).toEqual({
      amountBrl: '54.66',
      amountToken: '10.123456',
      exchangeRate: '5.4',
      platformFeeAmountBrl: '0.27',
      merchantFeeAmountBrl: '0.55',
      netAmountBrl: '53.84',
      markupAmountBrl: '0.00',
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

/**
 * Fee rounding makes net BRL non-monotone in the amount (one more centavo can add a centavo to
 * both fees), so "smallest" cannot be checked one centavo below the answer alone. Each fee rounds
 * by at most half a centavo, so net lies within a centavo of amount × keep (keep = 1 − fees): no
 * amount below (target − 0.01) ÷ keep can reach a net target, and (target + 0.01) ÷ keep always
 * does. So the properties check every centavo from that lower bound up to the answer.
 */
describe('inverse quotes: the smallest amount, also where fee rounding lets a lower one reach the target', () => {
  type Rates = { platformFeePercentage: string; merchantFeePercentage: string };
  const brl = fc.integer({ min: 1, max: 1_000_000_00 }).map((c) => (c / 100).toFixed(2));
  // Coarse fee rates (0.05 % steps) make exact half-centavo fees, where rounding gains most, frequent;
  // usual ones up to 5 % each, and high ones up to 49 % each (the settings allow fractions below 1).
  const feeIn = (maxSteps: number) => fc.integer({ min: 0, max: maxSteps }).map((f) => decimal(f).dividedBy(2000).toString());
  const coarseRates = fc.oneof(
    fc.record({ platformFeePercentage: feeIn(100), merchantFeePercentage: feeIn(100) }),
    fc.record({ platformFeePercentage: feeIn(980), merchantFeePercentage: feeIn(980) }),
  );
  const keepOf = (r: Rates) => decimal(1).minus(r.platformFeePercentage).minus(r.merchantFeePercentage);
  /** Every centavo amount below `answer` that could reach a net of `target` (see above), highest first. */
  function * candidatesBelow(answer: string, target: Dec, rates: Rates) {
    const lowest = Dec.max('0.01', target.minus('0.01').dividedBy(keepOf(rates)).toDecimalPlaces(2, Dec.ROUND_UP));
    for (let amount = decimal(answer).minus('0.01'); amount.gte(lowest); amount = amount.minus('0.01')) yield amount.toFixed(2);
  }

  it.each([
    // amountToken, rate, platform, merchant, smallest amountBrl: each one a centavo or two below what a search starting at the floor of the exact inverse finds
    ['1.000000', '1.00', '0.005', '0.005', '1.00'],
    ['4.960000', '1.00', '0.005', '0.005', '5.00'],
    ['0.026115', '302.12', '0.0445', '0.0445', '8.65'],
    ['1.536935', '58.48', '0.05', '0.0485', '99.69'],
    ['2.437500', '12.96', '0.002', '0.026', '32.49'],
    // Fees of 85 %: the smallest amount lies more than 5 centavos below the exact inverse.
    ['66.519600', '1.00', '0.425', '0.425', '443.40'],
    ['79.190000', '1.00', '0.425', '0.425', '527.87'],
  ])('payin for %s tokens at %s (fees %s + %s) costs %s BRL', (amountToken, exchangeRate, platformFeePercentage, merchantFeePercentage, amountBrl) => {
    const rates = { platformFeePercentage, merchantFeePercentage };
    const quoted = payinAmountForToken({ amountToken, exchangeRate, tokenDecimals: 6, rates });
    expect(quoted).toMatchObject({ amountBrl, amountToken: pricePayin({ amountBrl, exchangeRate, tokenDecimals: 6, rates }).amountToken });
    expect(decimal(quoted.amountToken).gte(amountToken)).toBe(true);
    // Below the floor of the exact inverse (amountToken × rate ÷ keep), which is what makes it worth pinning.
    expect(decimal(amountBrl).lt(decimal(amountToken).times(exchangeRate).dividedBy(keepOf(rates)).toDecimalPlaces(2, Dec.ROUND_DOWN))).toBe(true);
  });

  it.each([
    // netAmountBrl, rate, platform, merchant, smallest gross BRL, its deposit
    ['7.65', '102.00', '0.05', '0.05', '8.49', '0.083236'],
    ['15.52', '6.52', '0.038', '0.048', '16.97', '2.602761'],
    ['2.45', '104.72', '0.0175', '0.033', '2.57', '0.024542'],
    ['1.12', '1.00', '0.425', '0.425', '7.40', '7.400000'],
    ['3.71', '1.00', '0.425', '0.425', '24.67', '24.670000'],
  ])('payout paying %s BRL net at %s (fees %s + %s) needs %s BRL gross, a deposit of %s', (netAmountBrl, exchangeRate, platformFeePercentage, merchantFeePercentage, grossBrl, amountToken) => {
    const quoted = payoutTokenForNetBrl({ netAmountBrl, exchangeRate, tokenDecimals: 6, rates: { platformFeePercentage, merchantFeePercentage } });
    expect(quoted).toMatchObject({ amountBrl: grossBrl, amountToken, netAmountBrl });
  });

  it('fees of 100 % or more leave nothing to quote: a RangeError, not a search', () => {
    for (const [rates, total] of [
      [{ platformFeePercentage: '0.5', merchantFeePercentage: '0.5' }, '1'],
      [{ platformFeePercentage: '0.6', merchantFeePercentage: '0.5' }, '1.1'],
    ] as const) {
      const refusal = new RangeError(`fees of ${total} leave nothing of any amount`);
      expect(() => payinAmountForToken({ amountToken: '1.000000', exchangeRate: '5.40', tokenDecimals: 6, rates })).toThrow(refusal);
      expect(() => payoutTokenForNetBrl({ netAmountBrl: '1.00', exchangeRate: '5.40', tokenDecimals: 6, rates })).toThrow(refusal);
    }
  });

  it('payin: for a token amount some amount buys, the quote is no higher, and no lower amount buys as much', () => {
    fc.assert(
      fc.property(brl, rateText, coarseRates, (bought, exchangeRate, rates) => {
        const amountToken = pricePayin({ amountBrl: bought, exchangeRate, tokenDecimals: 6, rates }).amountToken;
        fc.pre(decimal(amountToken).gt(0));
        const quoted = payinAmountForToken({ amountToken, exchangeRate, tokenDecimals: 6, rates });
        expect(decimal(quoted.amountToken).gte(amountToken)).toBe(true);
        expect(decimal(quoted.amountBrl).lte(bought)).toBe(true);
        for (const amountBrl of candidatesBelow(quoted.amountBrl, decimal(amountToken).times(exchangeRate), rates)) {
          expect(decimal(pricePayin({ amountBrl, exchangeRate, tokenDecimals: 6, rates }).amountToken).lt(amountToken), amountBrl).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('payout: for a net some gross pays, the quoted gross is no higher, no lower gross pays as much, and one micro-token less falls below it', () => {
    fc.assert(
      fc.property(brl, rateText, coarseRates, (paid, exchangeRate, rates) => {
        const netAmountBrl = pricePayin({ amountBrl: paid, exchangeRate, tokenDecimals: 6, rates }).netAmountBrl;
        fc.pre(decimal(netAmountBrl).gt(0));
        const quoted = payoutTokenForNetBrl({ netAmountBrl, exchangeRate, tokenDecimals: 6, rates });
        expect(decimal(quoted.netAmountBrl).gte(netAmountBrl)).toBe(true);
        expect(decimal(quoted.amountBrl).lte(paid)).toBe(true);
        for (const gross of candidatesBelow(quoted.amountBrl, decimal(netAmountBrl), rates)) {
          expect(decimal(pricePayin({ amountBrl: gross, exchangeRate, tokenDecimals: 6, rates }).netAmountBrl).lt(netAmountBrl), gross).toBe(true);
        }
        const oneLess = decimal(quoted.amountToken).minus('0.000001');
        expect(decimal(pricePayout({ amountToken: oneLess.toFixed(6), exchangeRate, tokenDecimals: 6, rates }).amountBrl).lt(quoted.amountBrl)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
