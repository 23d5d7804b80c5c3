import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MarkupTerms, MAX_MARKUP_BPS, markupAmount, markupTermsProblem } from '../../src/lib/markup.ts';
import { decimal } from '../../src/lib/money.ts';
import { NothingLeftError, payinAmountForToken, payoutTokenForNetBrl, pricePayin, pricePayout } from '../../src/lib/pricing.ts';

const rates = { platformFeePercentage: '0.005', merchantFeePercentage: '0.01' };
const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => (c / 100).toFixed(2));
const terms: fc.Arbitrary<MarkupTerms> = fc
  .record({ bps: fc.integer({ min: 0, max: MAX_MARKUP_BPS }), flatBrl: cents(5_000), capExtra: fc.option(cents(50_000), { nil: null }) })
  .map(({ bps, flatBrl, capExtra }) => ({ bps, flatBrl, capBrl: capExtra === null ? null : decimal(flatBrl).plus(capExtra).toFixed(2) }));
const gross = fc.integer({ min: 1, max: 100_000_000 }).map((c) => (c / 100).toFixed(2));
const rateText = fc.integer({ min: 100, max: 99_999 }).map((r) => (r / 100).toFixed(2));
const feeFraction = fc.integer({ min: 0, max: 50_000 }).map((f) => decimal(f).dividedBy(1_000_000).toString());
const feeRates = fc.record({ platformFeePercentage: feeFraction, merchantFeePercentage: feeFraction });

describe('markup amount', () => {
  it.each([
    // gross, bps, flat, cap, markup
    ['1000.00', 100, '0.00', null, '10.00'],
    ['1000.00', 100, '2.50', null, '12.50'],
    ['1000.00', 100, '2.50', '11.00', '11.00'],
    ['1000.00', 0, '2.50', null, '2.50'],
    // 0.35 % of 10.01 is 0.035035: the basis-point part rounds down, in the payer's favour.
    ['10.01', 35, '0.00', null, '0.03'],
    ['10.01', 35, '0.10', '0.10', '0.10'],
    ['0.01', 1000, '0.00', null, '0.00'],
  ] as const)('%s BRL at %i bps + %s capped at %s is %s', (amount, bps, flatBrl, capBrl, expected) => {
    expect(markupAmount(amount, { bps, flatBrl, capBrl }).toFixed(2)).toBe(expected);
  });

  it('is never negative, never above the cap, never above bps + flat, and whole centavos', () => {
    fc.assert(
      fc.property(gross, terms, (amount, t) => {
        const markup = markupAmount(amount, t);
        expect(markup.isNegative()).toBe(false);
        expect(markup.decimalPlaces()).toBeLessThanOrEqual(2);
        if (t.capBrl !== null) expect(markup.lte(t.capBrl)).toBe(true);
        expect(markup.lte(decimal(amount).times(t.bps).dividedBy(10_000).plus(t.flatBrl))).toBe(true);
        // Within a centavo below the exact figure when the cap does not bind.
        if (t.capBrl === null) expect(markup.gt(decimal(amount).times(t.bps).dividedBy(10_000).plus(t.flatBrl).minus('0.01'))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('never falls as the amount grows (a larger order never carries less markup)', () => {
    fc.assert(
      fc.property(gross, gross, terms, (a, b, t) => {
        const [low, high] = decimal(a).lte(b) ? [a, b] : [b, a];
        expect(markupAmount(low, t).lte(markupAmount(high, t))).toBe(true);
      }),
    );
  });

  it.each([
    [{ bps: -1, flatBrl: '0', capBrl: null }, 'bps'],
    [{ bps: MAX_MARKUP_BPS + 1, flatBrl: '0', capBrl: null }, 'bps'],
    [{ bps: 1.5, flatBrl: '0', capBrl: null }, 'bps'],
    [{ bps: 0, flatBrl: '-0.01', capBrl: null }, 'flatBrl'],
    [{ bps: 0, flatBrl: '0.001', capBrl: null }, 'flatBrl'],
    [{ bps: 0, flatBrl: '2.00', capBrl: '1.99' }, 'capBrl'],
    [{ bps: 0, flatBrl: '2.00', capBrl: '2.001' }, 'capBrl'],
  ] as const)('refuses %o by its field %s', (t, field) => {
    expect(markupTermsProblem(t)?.field).toBe(field);
  });

  it('accepts the edges: 0 and the maximum bps, a cap equal to the flat amount, no cap', () => {
    expect(markupTermsProblem({ bps: 0, flatBrl: '0', capBrl: null })).toBeNull();
    expect(markupTermsProblem({ bps: MAX_MARKUP_BPS, flatBrl: '2.00', capBrl: '2.00' })).toBeNull();
  });
});

describe('pricing with a markup', () => {
  it('a payin pays fees and markup from the BRL in, so fewer tokens go out; the spec fee fields are as without it', () => {
    const input = { amountBrl: '1000.00', exchangeRate: '5.00', tokenDecimals: 6, rates };
    const plain = pricePayin(input);
    const marked = pricePayin({ ...input, markup: { bps: 100, flatBrl: '2.50', capBrl: null } });
    expect(marked).toEqual({ ...plain, markupAmountBrl: '12.50', netAmountBrl: '972.50', amountToken: '194.500000' });
    expect(plain.markupAmountBrl).toBe('0.00');
  });

  it('a payout pays the markup from the gross, so less BRL goes out by PIX', () => {
    const input = { amountToken: '200.000000', exchangeRate: '5.00', tokenDecimals: 6, rates };
    const marked = pricePayout({ ...input, markup: { bps: 50, flatBrl: '1.00', capBrl: '5.00' } });
    expect(marked).toMatchObject({ amountBrl: '1000.00', platformFeeAmountBrl: '5.00', merchantFeeAmountBrl: '10.00', markupAmountBrl: '5.00', netAmountBrl: '980.00' });
  });

  it('refuses terms that would take the whole order (never a zero or negative net)', () => {
    expect(() => pricePayin({ amountBrl: '1.00', exchangeRate: '5.00', tokenDecimals: 6, rates, markup: { bps: 0, flatBrl: '1.00', capBrl: null } })).toThrow(NothingLeftError);
    expect(() => pricePayout({ amountToken: '0.100000', exchangeRate: '5.00', tokenDecimals: 6, rates, markup: { bps: 0, flatBrl: '2.00', capBrl: null } })).toThrow(NothingLeftError);
  });

  it('fees + markup + net = gross, every part whole centavos and never negative (payin and payout)', () => {
    fc.assert(
      fc.property(gross, rateText, feeRates, terms, (amountBrl, exchangeRate, r, markup) => {
        let priced;
        try {
          priced = pricePayin({ amountBrl, exchangeRate, tokenDecimals: 6, rates: r, markup });
        } catch (err) {
          expect(err).toBeInstanceOf(NothingLeftError);
          expect(markupAmount(amountBrl, markup).gt(0)).toBe(true);
          return;
        }
        const parts = [priced.platformFeeAmountBrl, priced.merchantFeeAmountBrl, priced.markupAmountBrl, priced.netAmountBrl].map((p) => decimal(p));
        expect(parts.every((p) => !p.isNegative())).toBe(true);
        expect(parts.reduce((a, b) => a.plus(b)).eq(priced.amountBrl)).toBe(true);
        expect(decimal(priced.amountToken).times(exchangeRate).lte(priced.netAmountBrl)).toBe(true);
        expect(priced.markupAmountBrl).toBe(markupAmount(amountBrl, markup).toFixed(2));
      }),
      { numRuns: 3000 },
    );
  });

  it('inverse quotes with a markup reach the target and no centavo less does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 10_000_000 }).map((c) => (c / 100).toFixed(2)), rateText, feeRates, terms, (paid, exchangeRate, r, markup) => {
        let netAmountBrl: string;
        let amountToken: string;
        try {
          ({ netAmountBrl, amountToken } = pricePayin({ amountBrl: paid, exchangeRate, tokenDecimals: 6, rates: r, markup }));
        } catch {
          return fc.pre(false);
        }
        fc.pre(decimal(amountToken).gt(0));
        const payin = payinAmountForToken({ amountToken, exchangeRate, tokenDecimals: 6, rates: r, markup });
        expect(decimal(payin.amountToken).gte(amountToken)).toBe(true);
        expect(decimal(payin.amountBrl).lte(paid)).toBe(true);
        const below = decimal(payin.amountBrl).minus('0.01');
        if (below.gt(0)) {
          let tokens = '0';
          try {
            tokens = pricePayin({ amountBrl: below.toFixed(2), exchangeRate, tokenDecimals: 6, rates: r, markup }).amountToken;
          } catch (err) {
            expect(err).toBeInstanceOf(NothingLeftError);
          }
          expect(decimal(tokens).lt(amountToken)).toBe(true);
        }
        const payout = payoutTokenForNetBrl({ netAmountBrl, exchangeRate, tokenDecimals: 6, rates: r, markup });
        expect(decimal(payout.netAmountBrl).gte(netAmountBrl)).toBe(true);
        expect(decimal(payout.amountBrl).lte(paid)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
