import { sql } from 'kysely';
import type { Db as Executor } from '../../db/database.ts';
import type { OrderType } from '../../lib/order-types.ts';

/** Every function takes the transaction (or the root db) it runs in. NUMERIC columns are strings. */

const PLATFORM_COLUMNS = ['id', 'order_type', 'min_volume_brl', 'max_volume_brl', 'platform_fee_percentage'] as const;
const MERCHANT_COLUMNS = [...PLATFORM_COLUMNS, 'merchant_fee_percentage'] as const;

export interface NewPlatformTier {
  id: string;
  order_type: OrderType;
  min_volume_brl: string;
  max_volume_brl: string | null;
  platform_fee_percentage: string;
}

export interface NewMerchantTier extends NewPlatformTier {
  merchant_id: string;
  merchant_fee_percentage: string;
}

export const feeTiersRepo = {
  listPlatformTiers(db: Executor, orderType?: OrderType) {
    let query = db.selectFrom('platform_fee_tiers').select(PLATFORM_COLUMNS);
    if (orderType) query = query.where('order_type', '=', orderType);
    return query.orderBy('order_type').orderBy('min_volume_brl').orderBy('id').execute();
  },

  /**
   * Serializes writers of the platform schedule (two replacements would otherwise both delete
   * the old rows and insert their own). SHARE ROW EXCLUSIVE conflicts with itself and with row
   * writes, not with reads: merchants keep reading the committed schedule meanwhile.
   */
  async lockPlatformSchedule(db: Executor): Promise<void> {
    await sql`lock table platform_fee_tiers in share row exclusive mode`.execute(db);
  },

  deletePlatformTiers(db: Executor, orderType: OrderType) {
    return db.deleteFrom('platform_fee_tiers').where('order_type', '=', orderType).execute();
  },

  insertPlatformTiers(db: Executor, tiers: NewPlatformTier[]) {
    return db.insertInto('platform_fee_tiers').values(tiers).returning(PLATFORM_COLUMNS).execute();
  },

  listMerchantTiers(db: Executor, merchantId: string, orderType?: OrderType) {
    let query = db.selectFrom('merchant_fee_tiers').select(MERCHANT_COLUMNS).where('merchant_id', '=', merchantId);
    if (orderType) query = query.where('order_type', '=', orderType);
    return query.orderBy('order_type').orderBy('min_volume_brl').orderBy('id').execute();
  },

  /**
   * Locks the merchant's row so that replacements of its tiers run one after another. NO KEY
   * UPDATE conflicts with itself (and with UPDATE of the row) but not with the KEY SHARE locks
   * that foreign-key checks take, so the merchant's other inserts (receivers, orders) never wait on it.
   */
  lockMerchant(db: Executor, merchantId: string) {
    return db.selectFrom('merchants').select('id').where('id', '=', merchantId).forNoKeyUpdate().executeTakeFirst();
  },

  deleteMerchantTiers(db: Executor, merchantId: string, orderType: OrderType) {
    return db.deleteFrom('merchant_fee_tiers').where('merchant_id', '=', merchantId).where('order_type', '=', orderType).execute();
  },

  insertMerchantTiers(db: Executor, tiers: NewMerchantTier[]) {
    return db.insertInto('merchant_fee_tiers').values(tiers).returning(MERCHANT_COLUMNS).execute();
  },
};

export type PlatformTierRow = Awaited<ReturnType<typeof feeTiersRepo.listPlatformTiers>>[number];
export type MerchantTierRow = Awaited<ReturnType<typeof feeTiersRepo.listMerchantTiers>>[number];
