/**
 * Fee tiers over HTTP (spec, "Fee tier", GET /fee-tiers, PUT /fee-tiers/{orderType}), happy
 * paths: the platform's bands for a new merchant, the filter, each PUT rule, exact decimal
 * totals, and concurrent PUTs. Percentages are fractions (0.005 = 0.5 %).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { PLATFORM_DEFAULT, type ReplacedTier, type TierInput, UUID, bandsOf, feeTiersFixture } from './helpers.ts';

let shared: TestContext;
const { getTiers, putTiers, tiersOf, replace } = feeTiersFixture(() => shared);

beforeAll(async () => {
  shared = await createTestContext();
});
afterAll(async () => {
  await shared?.close();
});

describe('GET /fee-tiers', () => {
  it("a new merchant has the platform's bands with merchant fee 0 for both order types, ordered", async () => {
    const merchant = await shared.createMerchant();
    const tiers = await tiersOf(merchant);
    expect(tiers.map(({ id: _id, ...rest }) => rest)).toEqual(
      (['PAYIN', 'PAYOUT'] as const).flatMap((orderType) =>
        PLATFORM_DEFAULT.map((band) => ({ orderType, ...band, merchantFeePercentage: 0, totalFeePercentage: band.platformFeePercentage })),
      ),
    );
    for (const tier of tiers) expect(tier.id).toMatch(UUID);
    expect(new Set(tiers.map((t) => t.id)).size).toBe(6);
  });

  it('filters by orderType', async () => {
    const merchant = await shared.createMerchant();
    await replace(merchant, 'PAYOUT', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.002 }]);
    const payout = await tiersOf(merchant, 'PAYOUT');
    expect(payout).toHaveLength(1);
    expect(payout[0]).toMatchObject({ orderType: 'PAYOUT', merchantFeePercentage: 0.002 });
    const payin = await tiersOf(merchant, 'PAYIN');
    expect(payin).toHaveLength(3);
    expect(payin.every((t) => t.orderType === 'PAYIN')).toBe(true);
    expect(await tiersOf(merchant)).toEqual([...payin, ...payout]);
  });

  it('works with a bearer token too', async () => {
    const merchant = await shared.createMerchant();
    expect(await getTiers(await shared.bearerFor(merchant))).toMatchObject({ statusCode: 200 });
  });
});

describe('PUT /fee-tiers/{orderType}', () => {
  it('rule 1: replaces every existing tier of that order type (old ids gone, count equals the body), other type untouched', async () => {
    const merchant = await shared.createMerchant();
    const before = await tiersOf(merchant);
    const body = [
      { minVolumeBrl: 0, maxVolumeBrl: 5000, merchantFeePercentage: 0.01 },
      { minVolumeBrl: 5000, maxVolumeBrl: 20000, merchantFeePercentage: 0.008 },
      { minVolumeBrl: 20000, maxVolumeBrl: 100000, merchantFeePercentage: 0.006 },
      { minVolumeBrl: 100000, maxVolumeBrl: null, merchantFeePercentage: 0.004 },
    ];
    const replaced = await replace(merchant, 'PAYIN', body);
    expect(replaced).toHaveLength(4);
    const after = await tiersOf(merchant);
    const payin = after.filter((t) => t.orderType === 'PAYIN');
    expect(payin).toHaveLength(4);
    expect(payin.map((t) => t.id)).toEqual(replaced.map((t) => t.id));
    const oldPayinIds = before.filter((t) => t.orderType === 'PAYIN').map((t) => t.id);
    for (const id of oldPayinIds) expect(after.map((t) => t.id)).not.toContain(id);
    expect(after.filter((t) => t.orderType === 'PAYOUT')).toEqual(before.filter((t) => t.orderType === 'PAYOUT'));

    // A shorter set replaces the longer one completely.
    await replace(merchant, 'PAYIN', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0 }]);
    expect(await tiersOf(merchant, 'PAYIN')).toHaveLength(1);
  });

  it('rule 2: each merchant fee comes from the body, and the answer lists the new tiers', async () => {
    const merchant = await shared.createMerchant();
    const body = [
      { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.012345 },
      { minVolumeBrl: 100000, maxVolumeBrl: null, merchantFeePercentage: 0.1 },
    ];
    const replaced = await replace(merchant, 'PAYOUT', body);
    expect(bandsOf(replaced)).toEqual(body);
    expect(Object.keys(replaced[0]!).sort()).toEqual(
      ['id', 'maxVolumeBrl', 'merchantFeePercentage', 'minVolumeBrl', 'platformFeePercentage', 'totalFeePercentage'].sort(),
    );
    expect(bandsOf(await tiersOf(merchant, 'PAYOUT'))).toEqual(body);
  });

  it("rule 3: the platform fee is the platform's rate at each band's minVolumeBrl", async () => {
    const merchant = await shared.createMerchant();
    const replaced = await replace(merchant, 'PAYIN', [
      { minVolumeBrl: 0, maxVolumeBrl: 50000, merchantFeePercentage: 0 },
      { minVolumeBrl: 50000, maxVolumeBrl: 100000, merchantFeePercentage: 0 },
      { minVolumeBrl: 100000, maxVolumeBrl: 999999.99, merchantFeePercentage: 0 },
      { minVolumeBrl: 999999.99, maxVolumeBrl: 1000000, merchantFeePercentage: 0 },
      { minVolumeBrl: 1000000, maxVolumeBrl: 2000000, merchantFeePercentage: 0 },
      { minVolumeBrl: 2000000, maxVolumeBrl: null, merchantFeePercentage: 0 },
    ]);
    expect(replaced.map((t) => t.platformFeePercentage)).toEqual([0.005, 0.005, 0.0035, 0.0035, 0.0025, 0.0025]);

    // Unchanged bands keep exactly the platform fee they had.
    const again = await replace(merchant, 'PAYIN', bandsOf(replaced));
    expect(again.map((t) => t.platformFeePercentage)).toEqual(replaced.map((t) => t.platformFeePercentage));
  });

  it('a bounded last band is allowed (the spec says "typically" null)', async () => {
    const merchant = await shared.createMerchant();
    const tiers = await replace(merchant, 'PAYIN', [{ minVolumeBrl: 0, maxVolumeBrl: 100, merchantFeePercentage: 0 }]);
    expect(tiers[0]?.maxVolumeBrl).toBe(100);
  });

  it('the largest volume (9999999999999.99) is a valid bound, and a volume exactly at a bound is in the band above it', async () => {
    const merchant = await shared.createMerchant();
    const tiers = await replace(merchant, 'PAYOUT', [
      { minVolumeBrl: 0, maxVolumeBrl: 9999999999999.99, merchantFeePercentage: 0.001 },
      { minVolumeBrl: 9999999999999.99, maxVolumeBrl: null, merchantFeePercentage: 0.002 },
    ]);
    expect(bandsOf(tiers)).toEqual([
      { minVolumeBrl: 0, maxVolumeBrl: 9999999999999.99, merchantFeePercentage: 0.001 },
      { minVolumeBrl: 9999999999999.99, maxVolumeBrl: null, merchantFeePercentage: 0.002 },
    ]);
    const merchantFeeAt = async (volume: string) => (await shared.app.services.feeTiers.tierForVolume(merchant.merchantId, 'PAYOUT', volume)).merchantFeePercentage;
    expect(await merchantFeeAt('9999999999999.98')).toBe('0.001');
    expect(await merchantFeeAt('9999999999999.99')).toBe('0.002');
    const above = await putTiers(merchant, 'PAYOUT', [{ minVolumeBrl: 0, maxVolumeBrl: 10000000000000, merchantFeePercentage: 0 }]);
    expect(above.statusCode, above.body).toBe(400);
  });

  it('totals are exact decimal sums (0.005 + 0.01 = 0.015, 0.0035 + 0.0001 = 0.0036, 0.0035 + 0.001 = 0.0045)', async () => {
    const merchant = await shared.createMerchant();
    const tiers = await replace(merchant, 'PAYIN', [
      { minVolumeBrl: 0, maxVolumeBrl: 100000, merchantFeePercentage: 0.01 },
      { minVolumeBrl: 100000, maxVolumeBrl: 500000, merchantFeePercentage: 0.0001 },
      { minVolumeBrl: 500000, maxVolumeBrl: null, merchantFeePercentage: 0.001 },
    ]);
    // In floats the last would be 0.0045000000000000005.
    expect(tiers.map((t) => t.totalFeePercentage)).toEqual([0.015, 0.0036, 0.0045]);
    expect((await tiersOf(merchant, 'PAYIN')).map((t) => t.totalFeePercentage)).toEqual([0.015, 0.0036, 0.0045]);
  });

  it('concurrent PUTs serialize: afterwards exactly one complete set, equal to one of those sent', async () => {
    const merchant = await shared.createMerchant();
    // Ten different sets: different counts, bounds and fees, all starting at 0 (same unique key).
    const sets: TierInput[][] = Array.from({ length: 10 }, (_, n) =>
      Array.from({ length: n + 1 }, (_, i) => ({
        minVolumeBrl: i * 1000 * (n + 1),
        maxVolumeBrl: i === n ? null : (i + 1) * 1000 * (n + 1),
        merchantFeePercentage: (n * 10 + i) / 1_000_000,
      })),
    );
    const responses = await Promise.all(sets.map((set) => putTiers(merchant, 'PAYIN', set)));
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const payin = await tiersOf(merchant, 'PAYIN');
    const winner = sets.findIndex((set) => JSON.stringify(set) === JSON.stringify(bandsOf(payin)));
    expect(winner, JSON.stringify(payin)).toBeGreaterThanOrEqual(0);
    // The winner's own answer lists exactly the rows that remain.
    expect((responses[winner]!.json() as { tiers: ReplacedTier[] }).tiers.map((t) => t.id)).toEqual(payin.map((t) => t.id));
    expect(await tiersOf(merchant, 'PAYOUT')).toHaveLength(3);
  });
});
