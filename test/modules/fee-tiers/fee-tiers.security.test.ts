/**
 * Fee tiers over HTTP across merchants and without credentials: one merchant's PUT never
 * touches another's tiers, GET never shows them, and both routes need credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { API, feeTiersFixture } from './helpers.ts';

let shared: TestContext;
const { getTiers, tiersOf, replace } = feeTiersFixture(() => shared);

beforeAll(async () => {
  shared = await createTestContext();
});
afterAll(async () => {
  await shared?.close();
});

describe('PUT /fee-tiers/{orderType}', () => {
  it("isolation: merchant B's PUT does not touch A's tiers, and A's GET never shows B's", async () => {
    const a = await shared.createMerchant('Merchant A');
    const b = await shared.createMerchant('Merchant B');
    await replace(a, 'PAYIN', [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0.01 }]);
    const aBefore = await tiersOf(a);
    const bTiers = await replace(b, 'PAYIN', [
      { minVolumeBrl: 0, maxVolumeBrl: 10, merchantFeePercentage: 0.02 },
      { minVolumeBrl: 10, maxVolumeBrl: null, merchantFeePercentage: 0.03 },
    ]);
    const aAfter = await tiersOf(a);
    expect(aAfter).toEqual(aBefore);
    const bIds = (await tiersOf(b)).map((t) => t.id);
    expect(bIds).toEqual(expect.arrayContaining(bTiers.map((t) => t.id)));
    for (const tier of aAfter) expect(bIds).not.toContain(tier.id);
  });

  it('without credentials both routes are 401', async () => {
    expectErrorBody(await shared.app.inject({ method: 'GET', url: `${API}/fee-tiers` }), 401, 'UNAUTHORIZED');
    const put = await shared.app.inject({
      method: 'PUT',
      url: `${API}/fee-tiers/PAYIN`,
      payload: [{ minVolumeBrl: 0, maxVolumeBrl: null, merchantFeePercentage: 0 }],
    });
    expectErrorBody(put, 401, 'UNAUTHORIZED');
    const wrongSecret = await shared.createMerchant();
    expectErrorBody(await getTiers({ ...wrongSecret.headers, 'x-api-secret': `${wrongSecret.apiSecret}x` }), 401, 'UNAUTHORIZED');
  });
});
