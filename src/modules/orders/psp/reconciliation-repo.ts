/**
 * SQL of reconciliation (reconciliation.ts): which of our orders still wait for an outcome the
 * provider may already have. Reads only; the transitions go through the notifications' entry point.
 */
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import type { StoredOrderStatus } from '../tables.ts';

/** A literal status, so that even a generic plan matches the partial index orders_reconciliation_idx. */
const status = (value: StoredOrderStatus) => sql.lit(value);

export const reconciliationRepo = {
  /** Of these txids, the PAYIN orders that have not recorded their PIX yet. */
  unpaidByTxid(db: Db, txids: string[]) {
    if (txids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('orders')
      .select(['id', 'pix_txid'])
      .where('pix_txid', 'in', txids)
      .where('pix_end_to_end_id', 'is', null)
      .execute();
  },

  /** Of these endToEndIds, those an order recorded. */
  async recordedEndToEndIds(db: Db, endToEndIds: string[]): Promise<string[]> {
    if (endToEndIds.length === 0) return [];
    const rows = await db.selectFrom('orders').select('pix_end_to_end_id').where('pix_end_to_end_id', 'in', endToEndIds).execute();
    return rows.map((row) => row.pix_end_to_end_id!);
  },

  /** REFUNDING orders whose refund was requested (no step due) and last changed before `before`. */
  requestedRefunds(db: Db, before: Date, limit: number) {
    return db
      .selectFrom('orders')
      .select(['id', 'refund_id', 'pix_end_to_end_id'])
      .where('status', '=', status('REFUNDING'))
      .where('refund_id', 'is not', null)
      .where('next_step_at', 'is', null)
      .where('updated_at', '<=', before)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  },

  /** Payouts whose PIX was sent and not confirmed, last changed before `before`. */
  unconfirmedPayouts(db: Db, before: Date, limit: number) {
    return db
      .selectFrom('orders')
      .select(['id', 'provider_transaction_id'])
      .where('status', '=', status('PIX_SENT_UNCONFIRMED'))
      .where('provider_transaction_id', 'is not', null)
      .where('updated_at', '<=', before)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  },
};
