/**
 * The quotes table, and the pricing columns quotes and orders share. Merged into the database's
 * table map (`Database` in src/db/schema.ts).
 */
import type { ColumnType, Selectable } from 'kysely';
import type { DefaultedTimestamp } from '../../db/schema.ts';
import type { OrderType } from '../../lib/order-types.ts';

/** What quotes and orders both carry: amounts, rate and fees (NUMERIC text; fees as fractions). */
export interface PricingColumns {
  amount_brl: string;
  amount_token: string;
  exchange_rate: string;
  platform_fee_percentage: string;
  merchant_fee_percentage: string;
  platform_fee_amount_brl: string;
  merchant_fee_amount_brl: string;
  net_amount_brl: string;
  /** The partner's markup terms locked at pricing, and the amount taken (migration 0061; "0" and null when none). */
  markup_bps: ColumnType<number, number | undefined, number>;
  markup_flat_brl: ColumnType<string, string | undefined, string>;
  markup_cap_brl: ColumnType<string | null, string | null | undefined, string | null>;
  markup_amount_brl: ColumnType<string, string | undefined, string>;
}

export interface QuotesTable extends PricingColumns {
  id: string;
  merchant_id: string;
  receiver_id: string | null;
  type: OrderType;
  chain: string;
  token: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_by_order_id: string | null;
  created_at: DefaultedTimestamp;
}

export type QuoteRow = Selectable<QuotesTable>;

declare module '../../db/schema.ts' {
  interface Database {
    quotes: QuotesTable;
  }
}

/** Every column of `quotes`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const QUOTE_COLUMNS = ['id', 'merchant_id', 'receiver_id', 'type', 'chain', 'token', 'amount_brl', 'amount_token', 'exchange_rate', 'platform_fee_percentage', 'merchant_fee_percentage', 'platform_fee_amount_brl', 'merchant_fee_amount_brl', 'net_amount_brl', 'markup_bps', 'markup_flat_brl', 'markup_cap_brl', 'markup_amount_brl', 'expires_at', 'used_by_order_id', 'created_at'] as const satisfies ReadonlyArray<keyof QuotesTable>;
