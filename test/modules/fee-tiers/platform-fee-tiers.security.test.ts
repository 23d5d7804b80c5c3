/**
 * The operators' platform fee schedule is for operators only: merchant credentials are 403,
 * none 401, and the schedule stays as seeded.
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
