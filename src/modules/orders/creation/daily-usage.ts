/**
 * A receiver's usage of its daily limits: the one definition order creation checks against
 * (create-order.ts, with the row its context read joins) and GET /receivers/{id}/limits shows.
 * The day is the São Paulo calendar day of the instant; the count and total are the
 * `receiver_daily_usage` row that creation reserves (orders/repo.ts reserveDailyUsage) and a
 * failure before payment releases. No row: nothing used yet.
 */
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { saoPauloDay } from '../../../lib/sao-paulo-time.ts';

export interface DailyUsage {
  /** The São Paulo calendar day counted, 'YYYY-MM-DD'. */
  day: string;
  orderCount: number;
  /** BRL total reserved by the day's orders, decimal text. */
  amountBrl: string;
}

/** The limits' day of an instant. */
export const limitDayOf = (at: Date): string => saoPauloDay(at);

/** The usage of a day from its row (columns as the context read names them), or nothing used when there is none. */
export const usageFromRow = (day: string, row: { used_count: number | null; used_brl: string | null }): DailyUsage => ({
  day,
  orderCount: row.used_count ?? 0,
  amountBrl: row.used_brl ?? '0',
});

/** A receiver's usage on the limits' day of `at`. */
export async function receiverUsageAt(db: Db, receiverId: string, at: Date): Promise<DailyUsage> {
  const day = limitDayOf(at);
  const result = await sql<{ used_count: number; used_brl: string }>`
    select u.order_count as used_count, u.amount_brl as used_brl from receiver_daily_usage u
    where u.receiver_id = ${receiverId} and u.day = ${day}::date`.execute(db);
  return usageFromRow(day, result.rows[0] ?? { used_count: null, used_brl: null });
}
