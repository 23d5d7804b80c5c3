/**
 * Issue 38 item 8: decimal boundaries held at their exact values (>= against >, each rounding
 * mode), for the mutants made by hand (scripts/mutation-by-hand.mutants.ts): Stryker does not
 * mutate decimal.js calls, so these are the tests that notice a boundary moved by one.
 */
import { describe, expect, it } from 'vitest';
import { readDecimalText } from '../../src/lib/money.ts';
import { payinAmountForToken, payoutTokenForNetBrl, pricePayin, pricePayout } from '../../src/lib/pricing.ts';

describe('readDecimalText at its limits', () => {
  const rule = { places: 2, minimum: '0', maximum: '100' };

  it('reads an exponent of exactly 64 (then judged by its value), refuses 65 before decimal.js reads it', () => {
    expect(readDecimalText('1e-64', 'number', rule)).toEqual({ ok: false, problem: 'must have at most 2 decimal places' });
    expect(readDecimalText('0e64', 'number', rule)).toEqual({ ok: true, text: '0' });
    expect(readDecimalText('0e65', 'number', rule)).toEqual({ ok: false, problem: 'must have an exponent of at most 64' });
    expect(readDecimalText('1e+64', 'number', rule)).toEqual({ ok: false, problem: 'must be <= 100' });
  });

  it('takes text of exactly the longest length, refuses one character more', () => {
    const longest = `0.${'0'.repeat(62)}`;
    expect(longest).toHaveLength(64);
    expect(readDecimalText(longest, 'string', rule)).toEqual({ ok: true, text: '0' });
    expect(readDecimalText(`${longest}0`, 'string', rule)).toEqual({ ok: false, problem: 'must be at most 64 characters long' });
  });
});

describe('pricing at its rounding boundaries', () => {
  const none = { platformFeePercentage: '0', merchantFeePercentage: '0' };

  it('rounds the token down even a hair below the next unit, and the payout gross down even at .xx9', () => {
    // 0.999999 9 tokens: rounded down to 6 decimals, never up to 1.
    expect(pricePayin({ amountBrl: '9.99', exchangeRate: '9.990001', tokenDecimals: 6, rates: none }).amountToken).toBe('0.999999');
    expect(pricePayout({ amountToken: '1.999999', exchangeRate: '5', tokenDecimals: 6, rates: none }).amountBrl).toBe('9.99');
  });

  it('quotes the smallest amount that reaches the target exactly, not one centavo or micro-token more', () => {
    // 10 tokens at 5 BRL, no fees: exactly 50.00 buys exactly 10.
    expect(payinAmountForToken({ amountToken: '10', exchangeRate: '5', tokenDecimals: 6, rates: none })).toMatchObject({ amountBrl: '50.00', amountToken: '10.000000' });
    // A net of exactly 50.00: exactly 10 tokens deposited, the token rounded up only when it must be.
    expect(payoutTokenForNetBrl({ netAmountBrl: '50.00', exchangeRate: '5', tokenDecimals: 6, rates: none })).toMatchObject({ amountBrl: '50.00', amountToken: '10.000000', netAmountBrl: '50.00' });
    expect(payoutTokenForNetBrl({ netAmountBrl: '10.00', exchangeRate: '3', tokenDecimals: 6, rates: none })).toMatchObject({ amountToken: '3.333334', amountBrl: '10.00' });
  });

  it('quotes the smallest amount, one centavo, for the smallest targets, and for none at all', () => {
    expect(payinAmountForToken({ amountToken: '0', exchangeRate: '5', tokenDecimals: 6, rates: none }).amountBrl).toBe('0.01');
    expect(payoutTokenForNetBrl({ netAmountBrl: '0', exchangeRate: '5', tokenDecimals: 6, rates: none }).amountBrl).toBe('0.01');
    expect(payinAmountForToken({ amountToken: '0.000001', exchangeRate: '5', tokenDecimals: 6, rates: none }).amountBrl).toBe('0.01');
    expect(payoutTokenForNetBrl({ netAmountBrl: '0.01', exchangeRate: '5', tokenDecimals: 6, rates: none })).toMatchObject({ amountBrl: '0.01', amountToken: '0.002000' });
  });

  it('fees of exactly 100 % leave nothing: a RangeError; 99.99 % still quotes', () => {
    const all = { platformFeePercentage: '0.6', merchantFeePercentage: '0.4' };
    expect(() => payinAmountForToken({ amountToken: '1', exchangeRate: '5', tokenDecimals: 6, rates: all })).toThrow(RangeError);
    const almost = { platformFeePercentage: '0.5999', merchantFeePercentage: '0.4' };
    expect(payoutTokenForNetBrl({ netAmountBrl: '0.01', exchangeRate: '1', tokenDecimals: 6, rates: almost }).netAmountBrl).toBe('0.01');
  });
});
