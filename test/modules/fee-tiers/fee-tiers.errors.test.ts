import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { API, adminHeaders, type OrderType, type TierInput, getTiers, putTiers, tiersOf, replace, shared, useSharedContext } from './helpers.ts';

describe('fee tiers: errors', () => {
  useSharedContext();

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

      it('a bounded last band is allowed (the spec says "typically" null)', async () => {
        const merchant = await shared.createMerchant();
        const tiers = await replace(merchant, 'PAYIN', [{ minVolumeBrl: 0, maxVolumeBrl: 100, merchantFeePercentage: 0 }]);
        expect(tiers[0]?.maxVolumeBrl).toBe(100);
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
      ['a numeric string', [{ minVolumeBrl: '0', maxVolumeBrl: null, merchantFeePercentage: 0 }], 'body.0.minVolumeBrl'],
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

  describe('tierForVolume: the rates order creation uses', () => {
    let merchant: TestMerchant;
    beforeAll(async () => {
      merchant = await shared.createMerchant();
      await replace(merchant, 'PAYIN', [
        { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.001 },
        { minVolumeBrl: 100000, maxVolumeBrl: 1000000, merchantFeePercentage: 0.002 },
        { minVolumeBrl: 1000000, maxVolumeBrl: null, merchantFeePercentage: 0.003 },
      ]);
      await replace(merchant, 'PAYOUT', [
        { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.0005 },
        { minVolumeBrl: 100000, maxVolumeBrl: 200000, merchantFeePercentage: 0.001 },
      ]);
    });
    const tierFor = (orderType: OrderType, volume: string) => shared.app.services.feeTiers.tierForVolume(merchant.merchantId, orderType, volume);

    it('refuses a negative or malformed volume', async () => {
      await expect(tierFor('PAYIN', '-0.01')).rejects.toThrow(RangeError);
      await expect(tierFor('PAYIN', 'lots')).rejects.toThrow();
    });
  });

  describe('admin: the platform fee schedule', () => {
    // Its own database: changing the platform schedule must not leak into the other tests.
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext();
    });
    afterAll(async () => {
      await ctx?.close();
    });

    const admin = (method: 'GET' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = adminHeaders) =>
      ctx.app.inject({ method, url: `${API}/admin${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

    it('PUT validates the bands like the merchant PUT, and the platform rate below 1 with at most 8 decimals', async () => {
      const gap = [
        { minVolumeBrl: 0, maxVolumeBrl: 10, platformFeePercentage: 0.01 },
        { minVolumeBrl: 20, maxVolumeBrl: null, platformFeePercentage: 0.01 },
      ];
      expect(expectErrorBody(await admin('PUT', '/platform-fee-tiers/PAYIN', gap), 400, 'VALIDATION_ERROR').details).toHaveProperty(['body.1.minVolumeBrl']);
      for (const rate of [1, 0.123456789]) {
        const refused = expectErrorBody(await admin('PUT', '/platform-fee-tiers/PAYIN', [{ minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: rate }]), 400, 'VALIDATION_ERROR');
        expect(refused.details).toHaveProperty(['body.0.platformFeePercentage']);
      }
      const missing = expectErrorBody(await admin('PUT', '/platform-fee-tiers/PAYIN', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0 }]), 400, 'VALIDATION_ERROR');
      expect(missing.details).toMatchObject({ 'body.0.platformFeePercentage': 'is required', 'body.0.merchantFeePercentage': 'is not an allowed property' });
      expectErrorBody(await admin('PUT', '/platform-fee-tiers/SWAP', gap), 400, 'VALIDATION_ERROR');
      expect((await admin('GET', '/platform-fee-tiers?orderType=PAYIN')).json()).toHaveLength(3);
    });
  });
});
