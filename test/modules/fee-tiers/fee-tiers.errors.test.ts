/**
 * Fee tiers over HTTP, errors: every PUT rule and schema check is 400 VALIDATION_ERROR naming
 * the tier and field, and changes nothing; so are an invalid orderType in the query or path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { type TierInput, bandsOf, feeTiersFixture } from './helpers.ts';

let shared: TestContext;
const { getTiers, putTiers, tiersOf, replace } = feeTiersFixture(() => shared);

beforeAll(async () => {
  shared = await createTestContext();
});
afterAll(async () => {
  await shared?.close();
});

describe('GET /fee-tiers', () => {
  it('an invalid orderType or an unknown query parameter is 400 VALIDATION_ERROR', async () => {
    const merchant = await shared.createMerchant();
    const bad = expectErrorBody(await getTiers(merchant, '?orderType=SWAP'), 400, 'VALIDATION_ERROR');
    expect(bad.details).toHaveProperty(['querystring.orderType']);
    expectErrorBody(await getTiers(merchant, '?orderType=payin'), 400, 'VALIDATION_ERROR');
    const unknown = expectErrorBody(await getTiers(merchant, '?type=PAYIN'), 400, 'VALIDATION_ERROR');
    expect(unknown.details).toEqual({ 'querystring.type': 'is not an allowed property' });
  });
});

describe('PUT /fee-tiers/{orderType}', () => {
  it('rule 3: sending the platform fee is 400, even the value the platform would set, and changes nothing', async () => {
    const merchant = await shared.createMerchant();
    const replaced = await replace(merchant, 'PAYIN', [
      { minVolumeBrl: 0, maxVolumeBrl: 50000, merchantFeePercentage: 0 },
      { minVolumeBrl: 50000, maxVolumeBrl: 100000, merchantFeePercentage: 0 },
      { minVolumeBrl: 100000, maxVolumeBrl: 999999.99, merchantFeePercentage: 0 },
      { minVolumeBrl: 999999.99, maxVolumeBrl: 1000000, merchantFeePercentage: 0 },
      { minVolumeBrl: 1000000, maxVolumeBrl: 2000000, merchantFeePercentage: 0 },
      { minVolumeBrl: 2000000, maxVolumeBrl: null, merchantFeePercentage: 0 },
    ]);
    const sending = [
      { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.01 },
      { minVolumeBrl: 100000, maxVolumeBrl: null, merchantFeePercentage: 0.01, platformFeePercentage: 0 },
    ];
    const refused = expectErrorBody(await putTiers(merchant, 'PAYIN', sending), 400, 'VALIDATION_ERROR');
    expect(refused.message).toBe('platformFeePercentage is set by the platform and cannot be sent');
    expect(refused.details).toEqual({ 'body.1.platformFeePercentage': 'is set by the platform and cannot be sent' });
    // Even the value the platform would have set is refused, and nothing changed.
    const same = [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0, platformFeePercentage: 0.005 }];
    expectErrorBody(await putTiers(merchant, 'PAYIN', same), 400, 'VALIDATION_ERROR');
    expect(bandsOf(await tiersOf(merchant, 'PAYIN'))).toEqual(bandsOf(replaced));
  });

  describe('rule 4: contiguous bands, only the last unbounded', () => {
    const cases: Array<[string, TierInput[], Record<string, string>]> = [
      [
        'a gap',
        [
          { minVolumeBrl: 0, maxVolumeBrl: 1000, merchantFeePercentage: 0 },
          { minVolumeBrl: 1500, maxVolumeBrl: null, merchantFeePercentage: 0 },
        ],
        { 'body.1.minVolumeBrl': "must equal the previous tier's maxVolumeBrl (1000): tiers are contiguous, without gaps or overlaps" },
      ],
      [
        'an overlap',
        [
          { minVolumeBrl: 0, maxVolumeBrl: 1000, merchantFeePercentage: 0 },
          { minVolumeBrl: 999.99, maxVolumeBrl: null, merchantFeePercentage: 0 },
        ],
        { 'body.1.minVolumeBrl': "must equal the previous tier's maxVolumeBrl (1000): tiers are contiguous, without gaps or overlaps" },
      ],
      [
        'null in the middle',
        [
          { minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0 },
          { minVolumeBrl: 1000, maxVolumeBrl: null, merchantFeePercentage: 0 },
        ],
        { 'body.0.maxVolumeBrl': 'only the last tier may have no upper bound (null)' },
      ],
      ['a first band not at 0', [{ minVolumeBrl: 1, maxVolumeBrl: null, merchantFeePercentage: 0 }], { 'body.0.minVolumeBrl': 'must be 0: the first tier starts at zero volume' }],
      [
        'a max not above its min',
        [
          { minVolumeBrl: 0, maxVolumeBrl: 0, merchantFeePercentage: 0 },
          { minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0 },
        ],
        { 'body.0.maxVolumeBrl': 'must be greater than minVolumeBrl (0)' },
      ],
    ];

    it.each(cases)('%s is 400 VALIDATION_ERROR naming the tier and field, and changes nothing', async (_name, body, details) => {
      const merchant = await shared.createMerchant();
      const before = await tiersOf(merchant);
      const refused = expectErrorBody(await putTiers(merchant, 'PAYIN', body), 400, 'VALIDATION_ERROR');
      expect(refused.details).toEqual(details);
      expect(refused.message).toMatch(/^Invalid fee tiers: body\.\d\.\w+ /);
      expect(await tiersOf(merchant)).toEqual(before);
    });
  });

  it.each<[string, unknown, string, string]>([
    ['an empty array', [], 'body', 'must contain at least one tier'],
    [
      'more than FEE_TIERS_MAX (20) tiers',
      Array.from({ length: 21 }, (_, i) => ({ minVolumeBrl: i, maxVolumeBrl: i === 20 ? null : i + 1, merchantFeePercentage: 0 })),
      'body',
      'must contain at most 20 tiers',
    ],
    ['three decimals in an amount', [{ minVolumeBrl: 0, maxVolumeBrl: 10.001, merchantFeePercentage: 0 }], 'body.0.maxVolumeBrl', 'must have at most 2 decimal places'],
    ['a merchant fee above the maximum (0.1)', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.11 }], 'body.0.merchantFeePercentage', 'must be a fraction from 0 to 0.1 (0.01 = 1 %)'],
    ['seven decimals in a merchant fee', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.0012345 }], 'body.0.merchantFeePercentage', 'must have at most 6 decimal places'],
  ])('%s is 400 VALIDATION_ERROR', async (_name, body, key, problem) => {
    const merchant = await shared.createMerchant();
    const refused = expectErrorBody(await putTiers(merchant, 'PAYOUT', body), 400, 'VALIDATION_ERROR');
    expect(refused.details).toEqual({ [key]: problem });
  });

  it.each<[string, unknown, string]>([
    ['a negative amount', [{ minVolumeBrl: -1, maxVolumeBrl: null, merchantFeePercentage: 0 }], 'body.0.minVolumeBrl'],
    ['a negative fee', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: -0.01 }], 'body.0.merchantFeePercentage'],
    ['a string that is not plain decimal text', [{ minVolumeBrl: ' 0', maxVolumeBrl: null, merchantFeePercentage: 0 }], 'body.0.minVolumeBrl'],
    ['a missing field', [{ minVolumeBrl: 0, merchantFeePercentage: 0 }], 'body.0.maxVolumeBrl'],
    ['an unknown field', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0, fee: 1 }], 'body.0.fee'],
    ['an object instead of an array', { minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0 }, 'body'],
  ])('%s is refused by the schema with 400 naming the field', async (_name, body, key) => {
    const merchant = await shared.createMerchant();
    expect(expectErrorBody(await putTiers(merchant, 'PAYIN', body), 400, 'VALIDATION_ERROR').details).toHaveProperty([key]);
  });

  it('an invalid orderType in the path is 400 VALIDATION_ERROR', async () => {
    const merchant = await shared.createMerchant();
    const body = [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0 }];
    for (const orderType of ['SWAP', 'payin']) {
      const refused = expectErrorBody(await putTiers(merchant, orderType, body), 400, 'VALIDATION_ERROR');
      expect(refused.details).toHaveProperty(['params.orderType']);
    }
  });
});
