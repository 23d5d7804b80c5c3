/**
 * The operators' platform fee schedule, errors: PUT validates the bands like the merchant PUT,
 * and the platform rate (below 1, at most 8 decimals); a refused PUT changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { feeTiersFixture } from './helpers.ts';

let ctx: TestContext;
const { admin } = feeTiersFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

describe('admin: the platform fee schedule', () => {
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
