/**
 * Tables of the platform's and merchants' fee bands. Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { DefaultedTimestamp } from '../../db/schema.ts';
import type { OrderType } from '../../lib/order-types.ts';

export interface PlatformFeeTiersTable {
  id: string;
  order_type: OrderType;
  min_volume_brl: string;
  max_volume_brl: string | null;
  platform_fee_percentage: string;
}

export interface MerchantFeeTiersTable {
  id: string;
  merchant_id: string;
  order_type: OrderType;
  min_volume_brl: string;
  max_volume_brl: string | null;
  platform_fee_percentage: string;
  merchant_fee_percentage: string;
  created_at: DefaultedTimestamp;
}

declare module '../../db/schema.ts' {
  interface Database {
    platform_fee_tiers: PlatformFeeTiersTable;
    merchant_fee_tiers: MerchantFeeTiersTable;
  }
}
