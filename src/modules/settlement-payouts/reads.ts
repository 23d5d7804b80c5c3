/**
 * The back office's list of settlements with their payment (GET /admin/settlements): newest
 * first, by merchant and payment status, and what settlements owe and have not paid.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { toFixedText } from '../../lib/money.ts';
import type { SettlementPayoutStatus } from '../ledger/tables.ts';
import { SETTLEMENT_COLUMNS } from '../ledger/tables.ts';
import { toSettlement } from '../ledger/settlement-view.ts';

export async function listAdminSettlements(db: Db, query: { page: number; limit: number; merchantId?: string | undefined; payoutStatus?: SettlementPayoutStatus | undefined }) {
  let base = db.selectFrom('settlements as s');
  if (query.merchantId) base = base.where('s.merchant_id', '=', query.merchantId);
  const filtered = query.payoutStatus ? base.where('s.payout_status', '=', query.payoutStatus) : base;
  const [rows, count, unpaid] = await Promise.all([
    filtered
      .innerJoin('merchants as m', 'm.id', 's.merchant_id')
      .select([...SETTLEMENT_COLUMNS.map((column) => `s.${column}` as const), 'm.name as merchant_name', 's.provider_transaction_id', 's.payout_attempt'])
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc')
      .offset((query.page - 1) * query.limit)
      .limit(query.limit)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    base
      .where('s.payout_status', '<>', 'PAID')
      .select([sql<number>`count(*)::int`.as('count'), sql<string>`coalesce(sum(s.amount_brl), 0)::text`.as('amount')])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    data: rows.map((row) => ({ ...toSettlement(row), merchantName: row.merchant_name, providerTransactionId: row.provider_transaction_id, payoutAttempt: row.payout_attempt })),
    pagination: { page: query.page, limit: query.limit, total: Number(count.total) },
    unpaid: { count: unpaid.count, amountBrl: toFixedText(unpaid.amount, 2) },
  };
}
