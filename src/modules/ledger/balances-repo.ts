/**
 * GET /ledger/balances's SQL: the merchant's own ledger accounts, its settlements, and its orders
 * still in flight. The orders statement reads orders_merchant_status_created_idx for the
 * in-flight statuses only, so a long history of completed orders costs nothing.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { SETTLEMENT_COLUMNS } from './tables.ts';

export const balancesRepo = {
  /** The merchant's deposits_to_return balance per token (a credit: negative by what is held) and the orders that credited it. */
  heldDeposits(db: Db, merchantId: string) {
    return db
      .selectFrom('ledger_postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .innerJoin('ledger_entries as e', 'e.id', 'p.entry_id')
      .select([
        'a.currency',
        sql<string>`sum(p.amount)::text`.as('balance'),
        sql<number>`(count(distinct e.reference_id) filter (where p.amount < 0 and e.reference_type = 'order'))::int`.as('orders'),
      ])
      .where('a.code', '=', 'deposits_to_return')
      .where('a.merchant_id', '=', merchantId)
      .groupBy('a.currency')
      .orderBy('a.currency')
      .execute();
  },

  latestSettlement(db: Db, merchantId: string) {
    return db.selectFrom('settlements').select(SETTLEMENT_COLUMNS).where('merchant_id', '=', merchantId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  },

  settlementTotals(db: Db, merchantId: string) {
    return db
      .selectFrom('settlements')
      .select([sql<number>`count(*)::int`.as('count'), sql<string>`coalesce(sum(amount_brl), 0)::text`.as('total'), sql<Date | null>`max(created_at)`.as('last')])
      .where('merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow();
  },

  /** The merchant's orders in the given statuses, counted and summed per (type, status, token). */
  inFlight(db: Db, merchantId: string, statuses: readonly string[]) {
    return db
      .selectFrom('orders')
      .select([
        'type',
        'status',
        'token',
        sql<number>`count(*)::int`.as('count'),
        sql<string>`sum(amount_brl)::text`.as('amount_brl'),
        sql<string>`sum(amount_token)::text`.as('amount_token'),
      ])
      .where('merchant_id', '=', merchantId)
      .where('status', 'in', statuses as never)
      .groupBy(['type', 'status', 'token'])
      .execute();
  },
};
