/**
 * Each merchant's markup terms per order type (migration 0061). Merged into the database's table
 * map (`Database` in src/db/schema.ts).
 */
import type { ColumnType } from 'kysely';
import type { OrderType } from '../../lib/order-types.ts';

export interface MerchantMarkupsTable {
  merchant_id: string;
  order_type: OrderType;
  bps: number;
  flat_brl: string;
  cap_brl: string | null;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

declare module '../../db/schema.ts' {
  interface Database {
    merchant_markups: MerchantMarkupsTable;
  }
}

export const MARKUP_COLUMNS = ['merchant_id', 'order_type', 'bps', 'flat_brl', 'cap_brl', 'updated_at'] as const satisfies ReadonlyArray<keyof MerchantMarkupsTable>;
