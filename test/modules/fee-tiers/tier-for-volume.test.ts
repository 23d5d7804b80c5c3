/**
 * tierForVolume: the rates order creation uses, platform plus merchant fee of the band whose
 * [min, max) holds the month's volume (the last band above its max).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestMerchant } from '../../helpers/app.ts';
import { type OrderType, feeTiersFixture } from './helpers.ts';

let shared: TestContext;
const { replace } = feeTiersFixture(() => shared);

beforeAll(async () => {
  shared = await createTestContext();
});
afterAll(async () => {
  await shared?.close();
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

  it.each<[OrderType, string, string, string, string]>([
    ['PAYIN', '0', '0.005', '0.001', '0.006'],
    ['PAYIN', '99999.99', '0.005', '0.001', '0.006'],
    ['PAYIN', '100000', '0.0035', '0.002', '0.0055'],
    ['PAYIN', '100000.00', '0.0035', '0.002', '0.0055'],
    ['PAYIN', '999999.99', '0.0035', '0.002', '0.0055'],
    ['PAYIN', '1000000', '0.0025', '0.003', '0.0055'],
    ['PAYIN', '987654321.12', '0.0025', '0.003', '0.0055'],
    ['PAYOUT', '0', '0.005', '0.0005', '0.0055'],
    ['PAYOUT', '199999.99', '0.0035', '0.001', '0.0045'],
    // Above the last band's max: the last band.
    ['PAYOUT', '200000', '0.0035', '0.001', '0.0045'],
    ['PAYOUT', '5000000', '0.0035', '0.001', '0.0045'],
  ])('%s at %s BRL: platform %s + merchant %s = %s', async (orderType, volume, platformFeePercentage, merchantFeePercentage, totalFeePercentage) => {
    expect(await tierFor(orderType, volume)).toEqual({ platformFeePercentage, merchantFeePercentage, totalFeePercentage });
  });

  it('refuses a negative or malformed volume', async () => {
    await expect(tierFor('PAYIN', '-0.01')).rejects.toThrow(RangeError);
    await expect(tierFor('PAYIN', 'lots')).rejects.toThrow();
  });

  it('reads inside a caller transaction', async () => {
    const rates = await shared.database.db
      .transaction()
      .execute((trx) => shared.app.services.feeTiers.tierForVolume(merchant.merchantId, 'PAYIN', '100000', trx));
    expect(rates.totalFeePercentage).toBe('0.0055');
  });
});
