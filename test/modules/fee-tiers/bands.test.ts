/**
 * The pure band rules (spec, PUT /fee-tiers/{orderType}, rule 4): contiguous bands from 0, each
 * max above its min, only the last unbounded; amounts with 2 decimals, rates within bounds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.ts';
import { decimal } from '../../../src/lib/money.ts';
import { type BandRules, bandAt, parseBands, rejectPlatformFeeInBody } from '../../../src/modules/fee-tiers/bands.ts';

const rules: BandRules = { rate: { field: 'merchantFeePercentage', max: '0.1', places: 6 }, maxTiers: 5 };
type Tier = { minVolumeBrl: number; maxVolumeBrl: number | null; merchantFeePercentage: number };
const tier = (minVolumeBrl: number, maxVolumeBrl: number | null, merchantFeePercentage = 0): Tier => ({ minVolumeBrl, maxVolumeBrl, merchantFeePercentage });

/** The details of the VALIDATION_ERROR that parseBands throws. */
function problems(tiers: Tier[], bandRules: BandRules = rules): Record<string, unknown> {
  try {
    parseBands(tiers, bandRules);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_ERROR');
    return (error as AppError).details ?? {};
  }
  throw new Error('expected a VALIDATION_ERROR');
}

describe('parseBands', () => {
  it.each([
    ['one unbounded band', [tier(0, null)]],
    ['the platform default shape', [tier(0, 100000, 0.01), tier(100000, 1000000, 0.005), tier(1000000, null)]],
    ['a bounded last band', [tier(0, 50.5), tier(50.5, 1000)]],
    ['cents and the fee maximum', [tier(0, 0.01, 0.1), tier(0.01, null, 0.000001)]],
    ['the largest volume as a bound (9999999999999.99, inclusive)', [tier(0, 9999999999999.99), tier(9999999999999.99, null)]],
  ])('accepts %s', (_name, tiers) => {
    const bands = parseBands(tiers, rules);
    expect(bands.map((b) => [b.minVolumeBrl.toString(), b.maxVolumeBrl?.toString() ?? null, b.rate.toString()])).toEqual(
      tiers.map((t) => [String(t.minVolumeBrl), t.maxVolumeBrl === null ? null : String(t.maxVolumeBrl), String(t.merchantFeePercentage)]),
    );
  });

  it.each<[string, Tier[], Record<string, unknown>]>([
    ['an empty array', [], { body: 'must contain at least one tier' }],
    ['more tiers than allowed', [0, 1, 2, 3, 4, 5].map((i) => tier(i, i === 5 ? null : i + 1)), { body: 'must contain at most 5 tiers' }],
    ['a first band above 0', [tier(10, null)], { 'body.0.minVolumeBrl': 'must be 0: the first tier starts at zero volume' }],
    [
      'a gap',
      [tier(0, 100), tier(150, null)],
      { 'body.1.minVolumeBrl': "must equal the previous tier's maxVolumeBrl (100): tiers are contiguous, without gaps or overlaps" },
    ],
    [
      'an overlap',
      [tier(0, 100), tier(50, null)],
      { 'body.1.minVolumeBrl': "must equal the previous tier's maxVolumeBrl (100): tiers are contiguous, without gaps or overlaps" },
    ],
    ['null in the middle', [tier(0, null), tier(100, null)], { 'body.0.maxVolumeBrl': 'only the last tier may have no upper bound (null)' }],
    ['max equal to min', [tier(0, 100), tier(100, 100), tier(100, null)], { 'body.1.maxVolumeBrl': 'must be greater than minVolumeBrl (100)' }],
    ['max below min', [tier(0, 100), tier(100, 50)], { 'body.1.maxVolumeBrl': 'must be greater than minVolumeBrl (100)' }],
    ['three decimals in an amount', [tier(0, 10.005), tier(10.005, null)], { 'body.0.maxVolumeBrl': 'must have at most 2 decimal places', 'body.1.minVolumeBrl': 'must have at most 2 decimal places' }],
    ['a negative amount', [tier(-1, null)], { 'body.0.minVolumeBrl': 'must be >= 0' }],
    ['one centavo above the largest volume', [tier(0, 10000000000000), tier(10000000000000, null)], { 'body.0.maxVolumeBrl': 'must be <= 9999999999999.99', 'body.1.minVolumeBrl': 'must be <= 9999999999999.99' }],
    ['an amount beyond a JSON number’s exact range', [tier(0, 1e16), tier(1e16, null)], { 'body.0.maxVolumeBrl': 'must be <= 9999999999999.99', 'body.1.minVolumeBrl': 'must be <= 9999999999999.99' }],
    ['a fee above the maximum', [tier(0, null, 0.100001)], { 'body.0.merchantFeePercentage': 'must be a fraction from 0 to 0.1 (0.01 = 1 %)' }],
    ['a negative fee', [tier(0, null, -0.01)], { 'body.0.merchantFeePercentage': 'must be a fraction from 0 to 0.1 (0.01 = 1 %)' }],
    ['seven decimals in a fee', [tier(0, null, 0.0000001)], { 'body.0.merchantFeePercentage': 'must have at most 6 decimal places' }],
  ])('refuses %s, naming the index and field', (_name, tiers, expected) => {
    expect(problems(tiers)).toEqual(expected);
  });

  it('reports every bad field at once and names the first in the message', () => {
    try {
      parseBands([tier(5, 10), tier(20, null, 0.5)], rules);
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).message).toBe('Invalid fee tiers: body.0.minVolumeBrl must be 0: the first tier starts at zero volume (and 2 more, see details)');
      expect(Object.keys((error as AppError).details ?? {}).sort()).toEqual(['body.0.minVolumeBrl', 'body.1.merchantFeePercentage', 'body.1.minVolumeBrl']);
    }
  });

  it('an exclusive maximum refuses the bound itself (platform rates are below 1)', () => {
    const platform: BandRules = { rate: { field: 'platformFeePercentage', max: '1', maxExclusive: true, places: 8 }, maxTiers: 20 };
    const at = (rate: number) => [{ minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: rate }];
    expect(parseBands(at(0.99999999), platform)[0]?.rate.toString()).toBe('0.99999999');
    expect(() => parseBands(at(1), platform)).toThrow(AppError);
    expect(() => parseBands(at(0.000000001), platform)).toThrow(AppError);
  });

  it('every generated contiguous schedule is accepted and keeps its bounds exactly', () => {
    const cents = fc.array(fc.integer({ min: 1, max: 10_000_000_00 }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(cents, fc.boolean(), (widths, unbounded) => {
        let min = decimal(0);
        const tiers = widths.map((width, index) => {
          const max = min.plus(decimal(width).dividedBy(100));
          const last = index === widths.length - 1;
          const t = tier(min.toNumber(), last && unbounded ? null : max.toNumber(), 0.000001 * index);
          min = max;
          return t;
        });
        const bands = parseBands(tiers, rules);
        bands.forEach((band, i) => {
          if (i > 0) expect(band.minVolumeBrl.eq(bands[i - 1]!.maxVolumeBrl!)).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('bandAt: the band whose [min, max) contains the volume', () => {
  const bands = [
    { minVolumeBrl: '0.00', name: 'first' },
    { minVolumeBrl: '100000.00', name: 'second' },
    { minVolumeBrl: '1000000.00', name: 'third' },
  ];

  it.each([
    ['0', 'first'],
    ['99999.99', 'first'],
    ['100000', 'second'],
    ['999999.99', 'second'],
    ['1000000', 'third'],
    ['123456789012.34', 'third'],
  ])('%s falls in the %s band', (volume, name) => {
    expect(bandAt(bands, volume)?.name).toBe(name);
    expect(bandAt([...bands].reverse(), volume)?.name).toBe(name);
  });

  it('finds nothing below the first band or in an empty schedule', () => {
    expect(bandAt(bands, '-0.01')).toBeUndefined();
    expect(bandAt([], '10')).toBeUndefined();
  });
});

describe('rejectPlatformFeeInBody (spec rule 3: the platform fee cannot be set by the caller)', () => {
  it('names every tier that sends it', () => {
    try {
      rejectPlatformFeeInBody([{ minVolumeBrl: 0 }, { platformFeePercentage: 0 }, { platformFeePercentage: null }]);
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).code).toBe('VALIDATION_ERROR');
      expect((error as AppError).message).toBe('platformFeePercentage is set by the platform and cannot be sent');
      expect((error as AppError).details).toEqual({
        'body.1.platformFeePercentage': 'is set by the platform and cannot be sent',
        'body.2.platformFeePercentage': 'is set by the platform and cannot be sent',
      });
    }
  });

  it('leaves other bodies to the schema', () => {
    for (const body of [undefined, null, {}, { platformFeePercentage: 1 }, [], [null, 1, { merchantFeePercentage: 0 }]]) {
      expect(() => rejectPlatformFeeInBody(body)).not.toThrow();
    }
  });
});
