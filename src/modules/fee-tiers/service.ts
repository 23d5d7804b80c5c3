/**
 * Fee tiers: the platform's schedule per order type (operators) and each merchant's own bands
 * (spec, "Fee tier", GET /fee-tiers, PUT /fee-tiers/{orderType}). Percentages are FRACTIONS
 * (0.005 = 0.5 %), kept as NUMERIC text and added as decimals; they leave as JSON numbers.
 *
 * A merchant band's platform fee is the platform's rate in force at the band's minVolumeBrl,
 * fixed when the band is written (merchant creation, or the merchant's PUT). Replacing the
 * platform schedule does not rewrite existing merchant bands: it reaches a merchant when it
 * next replaces its bands of that order type, and new merchants at creation.
 */
import type { Config } from '../../config.ts';
import { inTransaction, withinOrNew } from '../../platform/commit-signals.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { OrderType } from '../../lib/order-types.ts';
import { AppError, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Dec, decimal, toFixedText, toJsonNumber } from '../../lib/money.ts';
import { createReadCache } from '../../lib/read-cache.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { MERCHANT_FEE_DECIMALS, PLATFORM_FEE_DECIMALS, VOLUME_DECIMALS, type Band, bandAt, parseBands } from './bands.ts';
import { type MerchantTierRow, type PlatformTierRow, feeTiersRepo as repo } from './repo.ts';

/** Decimal text from a body (DecimalAmount), or numbers from a caller of the service. */
export interface MerchantFeeTierInput {
  minVolumeBrl: number | string;
  maxVolumeBrl: number | string | null;
  merchantFeePercentage: number | string;
}

export interface PlatformFeeTierInput {
  minVolumeBrl: number | string;
  maxVolumeBrl: number | string | null;
  platformFeePercentage: number | string;
}

export interface PlatformFeeTier {
  id: string;
  orderType: OrderType;
  minVolumeBrl: number;
  maxVolumeBrl: number | null;
  platformFeePercentage: number;
}

export interface FeeTier extends PlatformFeeTier {
  merchantFeePercentage: number;
  totalFeePercentage: number;
}

/** The rates of the band in force at a volume, as decimal text (fractions), for order creation. */
export interface FeeRates {
  platformFeePercentage: string;
  merchantFeePercentage: string;
  totalFeePercentage: string;
}

const toPlatformTier = (row: PlatformTierRow): PlatformFeeTier => ({
  id: row.id,
  orderType: row.order_type,
  minVolumeBrl: toJsonNumber(row.min_volume_brl),
  maxVolumeBrl: row.max_volume_brl === null ? null : toJsonNumber(row.max_volume_brl),
  platformFeePercentage: toJsonNumber(row.platform_fee_percentage),
});

const toFeeTier = (row: MerchantTierRow): FeeTier => ({
  ...toPlatformTier(row),
  merchantFeePercentage: toJsonNumber(row.merchant_fee_percentage),
  totalFeePercentage: toJsonNumber(decimal(row.platform_fee_percentage).plus(row.merchant_fee_percentage)),
});

/** The PUT answers list the tiers of the one order type in the path, so without orderType. */
const withoutOrderType = <T extends { orderType: OrderType }>({ orderType: _orderType, ...rest }: T): Omit<T, 'orderType'> => rest;

const volumeText = (value: Dec | null) => (value === null ? null : toFixedText(value, VOLUME_DECIMALS));
const rateText = (value: Dec | string) => toFixedText(value, PLATFORM_FEE_DECIMALS);

export interface FeeTiersDeps {
  db: Db;
  settings: Config['feeTiers'];
  /** How long another process's change of a merchant's tiers may go unseen here (this process's own changes apply at once). */
  cacheTtlMs?: number;
}

/** Every order is priced with its merchant's bands; they change rarely (PUT /fee-tiers). */
const DEFAULT_TIER_CACHE_TTL_MS = 5_000;

export function createFeeTiersService({ db, settings, cacheTtlMs = DEFAULT_TIER_CACHE_TTL_MS }: FeeTiersDeps) {
  const tierCache = createReadCache<MerchantTierRow[]>({ ttlMs: cacheTtlMs, maxEntries: 20_000 });
  const tierKey = (merchantId: string, orderType: OrderType) => `${merchantId}:${orderType}`;
  // merchant_fee_percentage is NUMERIC(10,8) with a check `< 1`: a larger setting could only fail in SQL.
  if (!decimal(settings.maxMerchantFeePercentage).lt(1)) {
    throw new Error(`feeTiers.maxMerchantFeePercentage must be a fraction below 1 (got ${settings.maxMerchantFeePercentage})`);
  }
  const merchantRules = {
    rate: { field: 'merchantFeePercentage', max: decimal(settings.maxMerchantFeePercentage).toString(), places: MERCHANT_FEE_DECIMALS },
    maxTiers: settings.maxTiersPerOrderType,
  };
  const platformRules = {
    rate: { field: 'platformFeePercentage', max: '1', maxExclusive: true, places: PLATFORM_FEE_DECIMALS },
    maxTiers: settings.maxTiersPerOrderType,
  };

  /** The platform's rate in force at a volume, from its current schedule of that order type. */
  function platformRateAt(schedule: PlatformTierRow[], orderType: OrderType, volume: Dec): string {
    const band = bandAt(
      schedule.map((row) => ({ minVolumeBrl: row.min_volume_brl, rate: row.platform_fee_percentage })),
      volume,
    );
    if (!band) throw new Error(`The platform has no ${orderType} fee schedule covering ${volume.toString()} BRL`);
    return band.rate;
  }

  function merchantRows(merchantId: string, orderType: OrderType, bands: Band[], schedule: PlatformTierRow[]) {
    return bands.map((band) => ({
      id: newId(),
      merchant_id: merchantId,
      order_type: orderType,
      min_volume_brl: toFixedText(band.minVolumeBrl, VOLUME_DECIMALS),
      max_volume_brl: volumeText(band.maxVolumeBrl),
      platform_fee_percentage: rateText(platformRateAt(schedule, orderType, band.minVolumeBrl)),
      merchant_fee_percentage: rateText(band.rate),
    }));
  }

  /**
   * Fees of 100 % or more leave nothing to convert: pricing cannot invert them (a quote would fail
   * with a 500). Each rate is checked alone by the schema; the sum needs the platform's rate of
   * each band, known only here. An operator may set a high platform rate and a merchant a high
   * fee of its own (MERCHANT_FEE_MAX_PERCENTAGE is below 1, not below 1 minus the platform's).
   */
  function refuseWholeAmountFees(rows: ReturnType<typeof merchantRows>): void {
    const details: Record<string, string> = {};
    rows.forEach((row, index) => {
      const platform = decimal(row.platform_fee_percentage);
      if (platform.plus(row.merchant_fee_percentage).gte(1)) {
        details[`body.${index}.merchantFeePercentage`] = `with the platform's fee of ${platform.toString()} in this band, must be below ${decimal(1).minus(platform).toString()} (the total fee must stay below 1)`;
      }
    });
    if (Object.keys(details).length > 0) throw new AppError('VALIDATION_ERROR', 'The total fee (platform plus merchant) must stay below 100 %', details);
  }

  return {
    /** Gives a new merchant the platform's bands with merchant fee 0, inside its creation transaction. */
    async initializeForMerchant(trx: Trx, merchantId: string): Promise<void> {
      const schedule = await repo.listPlatformTiers(trx);
      if (schedule.length === 0) return;
      await repo.insertMerchantTiers(
        trx,
        schedule.map((row) => ({
          id: newId(),
          merchant_id: merchantId,
          order_type: row.order_type,
          min_volume_brl: row.min_volume_brl,
          max_volume_brl: row.max_volume_brl,
          platform_fee_percentage: row.platform_fee_percentage,
          merchant_fee_percentage: rateText('0'),
        })),
      );
    },

    /** GET /fee-tiers: ordered by orderType, then minVolumeBrl. */
    async listMerchantTiers(merchantId: string, orderType?: OrderType): Promise<FeeTier[]> {
      return (await repo.listMerchantTiers(db, merchantId, orderType)).map(toFeeTier);
    },

    /**
     * PUT /fee-tiers/{orderType}: the body is the complete new set of that order type (rule 1);
     * merchant fees come from it (rule 2); each band's platform fee is the platform's rate at its
     * minVolumeBrl (rule 3); bands are contiguous from 0 and only the last is unbounded (rule 4).
     * Atomic, and concurrent replacements for one merchant run one after another.
     */
    async replaceMerchantTiers(merchantId: string, orderType: OrderType, tiers: MerchantFeeTierInput[]) {
      const bands = parseBands(tiers, merchantRules);
      return inTransaction(db, async (trx) => {
        if (!(await repo.lockMerchant(trx, merchantId))) throw notFound('Merchant');
        const schedule = await repo.listPlatformTiers(trx, orderType);
        const rows = merchantRows(merchantId, orderType, bands, schedule);
        refuseWholeAmountFees(rows);
        await repo.deleteMerchantTiers(trx, merchantId, orderType);
        const inserted = await repo.insertMerchantTiers(trx, rows);
        return { success: true as const, tiers: sortByMin(inserted).map(toFeeTier).map(withoutOrderType) };
      }).finally(() => tierCache.forget(tierKey(merchantId, orderType)));
    },

    /** Another process changed this merchant's tiers (or the change notifications were lost: everything). */
    forgetCachedTiers: (merchantId?: string) => (merchantId === undefined ? tierCache.clear() : tierCache.forgetPrefix(`${merchantId}:`)),

    /**
     * The merchant's rates for an order at a month-to-date volume (DESIGN.md §5): the band whose
     * [min, max) contains the volume, or the last band above its max. The bands come from the
     * cache unless `executor` (a transaction) is given, which reads them inside it.
     */
    async tierForVolume(merchantId: string, orderType: OrderType, monthVolumeBrl: string, executor?: Db): Promise<FeeRates> {
      const volume = decimal(monthVolumeBrl);
      if (!volume.isFinite() || volume.isNegative()) throw new RangeError(`monthVolumeBrl must be a non-negative decimal (got ${monthVolumeBrl})`);
      const rows = executor
        ? await repo.listMerchantTiers(executor, merchantId, orderType)
        : await tierCache.read(tierKey(merchantId, orderType), () => repo.listMerchantTiers(db, merchantId, orderType));
      const band = bandAt(
        rows.map((row) => ({ ...row, minVolumeBrl: row.min_volume_brl })),
        volume,
      );
      if (!band) throw new Error(`Merchant ${merchantId} has no ${orderType} fee tier covering ${monthVolumeBrl} BRL`);
      const platform = decimal(band.platform_fee_percentage);
      const merchant = decimal(band.merchant_fee_percentage);
      return {
        platformFeePercentage: platform.toString(),
        merchantFeePercentage: merchant.toString(),
        totalFeePercentage: platform.plus(merchant).toString(),
      };
    },

    /** GET /admin/platform-fee-tiers. */
    async listPlatformTiers(orderType?: OrderType): Promise<PlatformFeeTier[]> {
      return (await repo.listPlatformTiers(db, orderType)).map(toPlatformTier);
    },

    /** Throws 400 with the band errors, as replacePlatformTiers would (a proposal is checked when it is made). */
    checkPlatformTiers(tiers: PlatformFeeTierInput[]): void {
      parseBands(tiers, platformRules);
    },

    /**
     * PUT /admin/platform-fee-tiers/{orderType}: replaces the platform's schedule of one order
     * type, audited in the same transaction. Merchants' existing bands are not rewritten.
     */
    async replacePlatformTiers(orderType: OrderType, tiers: PlatformFeeTierInput[], by: AuditActor, outer?: Trx) {
      const bands = parseBands(tiers, platformRules);
      return withinOrNew(db, outer, async (trx) => {
        await repo.lockPlatformSchedule(trx);
        const previous = await repo.listPlatformTiers(trx, orderType);
        await repo.deletePlatformTiers(trx, orderType);
        const inserted = await repo.insertPlatformTiers(
          trx,
          bands.map((band) => ({
            id: newId(),
            order_type: orderType,
            min_volume_brl: toFixedText(band.minVolumeBrl, VOLUME_DECIMALS),
            max_volume_brl: volumeText(band.maxVolumeBrl),
            platform_fee_percentage: rateText(band.rate),
          })),
        );
        await recordAudit(trx, by, {
          action: 'platform_fee_tiers.replace',
          targetType: 'platform_fee_tiers',
          targetId: orderType,
          details: { tiers, before: previous.map(toPlatformTier).map(withoutOrderType) },
        });
        return { success: true as const, tiers: sortByMin(inserted).map(toPlatformTier).map(withoutOrderType) };
      });
    },
  };
}

const sortByMin = <R extends { min_volume_brl: string }>(rows: R[]): R[] =>
  [...rows].sort((a, b) => decimal(a.min_volume_brl).comparedTo(b.min_volume_brl));

export type FeeTiersService = ReturnType<typeof createFeeTiersService>;
