import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { API, adminHeaders, getTiers, tiersOf, replace, shared, useSharedContext } from './helpers.ts';

describe('fee tiers: security', () => {
  useSharedContext();

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

    it('is guarded: merchant credentials are 403, none 401', async () => {
      const merchant = await ctx.createMerchant();
      const body = [{ minVolumeBrl: 0, maxVolumeBrl: null, platformFeePercentage: 0 }];
      expectErrorBody(await admin('GET', '/platform-fee-tiers', undefined, merchant.headers), 403, 'FORBIDDEN');
      expectErrorBody(await admin('PUT', '/platform-fee-tiers/PAYIN', body, merchant.headers), 403, 'FORBIDDEN');
      expectErrorBody(await admin('GET', '/platform-fee-tiers', undefined, {}), 401, 'UNAUTHORIZED');
      expectErrorBody(await admin('PUT', '/platform-fee-tiers/PAYIN', body, {}), 401, 'UNAUTHORIZED');
      expect((await admin('GET', '/platform-fee-tiers?orderType=PAYIN')).json()).toHaveLength(3);
    });
  });
});
