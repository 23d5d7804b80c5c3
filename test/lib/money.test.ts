import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimal, hasAtMostDecimals, readDecimalText, toFixedText, toJsonNumber } from '../../src/lib/money.ts';

describe('money', () => {
  it('adds without float error', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(decimal(0.1).plus(0.2).toString()).toBe('0.3');
    expect(toJsonNumber(decimal(0.005).plus(0.01))).toBe(0.015);
  });

  it('counts decimals of JSON numbers as written', () => {
    expect(hasAtMostDecimals(10.5, 2)).toBe(true);
    expect(hasAtMostDecimals(10.55, 2)).toBe(true);
    expect(hasAtMostDecimals(10.555, 2)).toBe(false);
    expect(hasAtMostDecimals(1e-7, 6)).toBe(false);
    expect(hasAtMostDecimals('100000.00', 2)).toBe(true);
  });

  it('rounds half-even unless told otherwise', () => {
    expect(toFixedText(decimal('0.125'), 2)).toBe('0.12');
    expect(toFixedText(decimal('0.135'), 2)).toBe('0.14');
    expect(toFixedText(decimal(0), 2)).toBe('0.00');
  });

  it('multiplies the largest NUMERIC(18,2) amount by an 8-decimal rate exactly (24 significant digits)', () => {
    expect(decimal('9999999999999.99').times('0.99999999').toString()).toBe('9999999899999.9900000001');
  });

  it('prints fractions and large amounts without exponents', () => {
    expect(decimal('0.00000001').toString()).toBe('0.00000001');
    expect(decimal('1e21').toString()).toBe('1000000000000000000000');
  });

  it('reads the JSON number -0 as 0, not as a negative amount', () => {
    expect(decimal(-0).isNegative()).toBe(false);
    expect(decimal(-0).toString()).toBe('0');
  });

  it('shows a fee fraction as it is stored (the API shows fractions everywhere)', () => {
    expect(toJsonNumber(decimal('0.005').plus('0.01'))).toBe(0.015);
    expect(toJsonNumber('0.00000001')).toBe(0.00000001);
  });

  it('refuses non-finite numbers', () => {
    expect(() => decimal(Number.NaN)).toThrow(new RangeError('amount must be finite'));
    expect(() => decimal(Number.POSITIVE_INFINITY)).toThrow(new RangeError('amount must be finite'));
  });

  it('round-trips NUMERIC(18,2) text through the JSON number exactly', () => {
    const cents = fc.bigInt({ min: 0n, max: 10n ** 15n - 1n });
    fc.assert(
      fc.property(cents, (value) => {
        const text = toFixedText(decimal(value.toString()).dividedBy(100), 2);
        expect(toFixedText(decimal(toJsonNumber(text)), 2)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('readDecimalText', () => {
  const brl = { places: 2, exclusiveMinimum: '0', maximum: '100' };
  const volume = { places: 2, minimum: '0', maximum: '100' };

  it('reads the text, never a float: trailing zeros carry no value, a lost digit is refused', () => {
    expect(readDecimalText('10.50', 'string', brl)).toEqual({ ok: true, text: '10.5' });
    expect(readDecimalText('99.9900000000', 'number', brl)).toEqual({ ok: true, text: '99.99' });
    expect(readDecimalText('99.999999999999999999', 'number', brl)).toEqual({ ok: false, problem: 'must have at most 2 decimal places' });
    expect(readDecimalText('1.5e1', 'number', brl)).toEqual({ ok: true, text: '15' });
    expect(readDecimalText('1.5e1', 'string', brl)).toEqual({ ok: false, problem: 'must be a number or plain decimal text such as "100.50" (no exponent, no spaces)' });
  });

  it('refuses text that is not whole a number: anything before or after it, as a string or as a number', () => {
    const notNumber = { ok: false, problem: 'must be a decimal number' };
    const notText = { ok: false, problem: 'must be a number or plain decimal text such as "100.50" (no exponent, no spaces)' };
    for (const text of ['x1', '1x', ' 1', '1 ', '1e', '--1', '']) {
      expect(readDecimalText(text, 'number', brl), text).toEqual(notNumber);
      expect(readDecimalText(text, 'string', brl), text).toEqual(notText);
    }
  });

  it('holds the bounds exactly', () => {
    expect(readDecimalText('100', 'number', brl)).toEqual({ ok: true, text: '100' });
    expect(readDecimalText('100.01', 'number', brl)).toEqual({ ok: false, problem: 'must be <= 100' });
    expect(readDecimalText('0.01', 'number', brl)).toEqual({ ok: true, text: '0.01' });
    expect(readDecimalText('0', 'number', brl)).toEqual({ ok: false, problem: 'must be greater than 0' });
    expect(readDecimalText('-0', 'number', volume)).toEqual({ ok: true, text: '0' });
    expect(readDecimalText('-0.01', 'number', volume)).toEqual({ ok: false, problem: 'must be >= 0' });
    expect(readDecimalText('1e-65', 'number', volume)).toEqual({ ok: false, problem: 'must have an exponent of at most 64' });
  });
});
