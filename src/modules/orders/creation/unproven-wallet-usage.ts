/**
 * The LIMITED wallet ownership policy's day (issue 38 item 7, migration 0045): what a merchant's
 * PAYINs to one wallet not proven the receiver's reserved on one São Paulo day. Read before the
 * provider call (the early refusal) and reserved in the creation transaction by a guarded upsert:
 * the row lock makes concurrent orders to one wallet queue, and the WHERE refuses any that would
 * pass the cap, so two orders racing cannot both fit. Given back as the receiver's limits are
 * (decision 0034): by the transitions the order process declares `releasesLimit` (an order
 * expired unpaid), once, in `applyTransition`; the order says it took a reservation
 * (`unproven_wallet_reserved`). The cap bounds what may reach an unproven wallet in a day, and
 * an order given back can no longer send it anything.
 */
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';

export const unprovenWalletUsage = {
  /** The BRL reserved today for the wallet, decimal text ('0' when nothing). */
  async usedOn(db: Db, input: { merchantId: string; wallet: string; day: string }): Promise<string> {
    const row = await db
      .selectFrom('unproven_wallet_daily_usage')
      .select('amount_brl')
      .where('merchant_id', '=', input.merchantId)
      .where('wallet_address', '=', input.wallet)
      .where('day', '=', input.day)
      .executeTakeFirst();
    return row?.amount_brl ?? '0';
  },

  /** Adds `amountBrl` to the wallet's day unless it would pass `capBrl`; false (nothing changed) when it would. */
  async reserve(db: Db, input: { merchantId: string; wallet: string; day: string; amountBrl: string; capBrl: string }): Promise<boolean> {
    const result = await sql<{ amount_brl: string }>`
      insert into unproven_wallet_daily_usage as u (merchant_id, wallet_address, day, amount_brl)
      select ${input.merchantId}::uuid, ${input.wallet}, ${input.day}::date, ${input.amountBrl}::numeric
      where ${input.amountBrl}::numeric <= ${input.capBrl}::numeric
      on conflict (merchant_id, wallet_address, day) do update
        set amount_brl = u.amount_brl + excluded.amount_brl
        where u.amount_brl + excluded.amount_brl <= ${input.capBrl}::numeric
      returning u.amount_brl`.execute(db);
    return result.rows.length === 1;
  },

  /** Gives back what an order reserved on the wallet's day (never below zero, as the receiver's day). */
  async release(db: Db, input: { merchantId: string; wallet: string; day: string; amountBrl: string }): Promise<void> {
    await sql`
      update unproven_wallet_daily_usage set amount_brl = greatest(amount_brl - ${input.amountBrl}::numeric, 0)
      where merchant_id = ${input.merchantId}::uuid and wallet_address = ${input.wallet} and day = ${input.day}::date`.execute(db);
  },
};
