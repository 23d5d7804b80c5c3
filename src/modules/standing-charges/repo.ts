/** SQL of standing PIX charges; every function takes the transaction (or root db) it runs in. */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PayerPolicy } from '../merchants/tables.ts';
import { STANDING_CHARGE_COLUMNS, type StandingPixChargesTable } from './tables.ts';

export const standingChargesRepo = {
  insert(db: Db, row: Insertable<StandingPixChargesTable>) {
    return db.insertInto('standing_pix_charges').values(row).returning(STANDING_CHARGE_COLUMNS).executeTakeFirstOrThrow();
  },

  /** The merchant's charges of one receiver, newest first. */
  listOfReceiver(db: Db, merchantId: string, receiverId: string) {
    return db
      .selectFrom('standing_pix_charges')
      .select(STANDING_CHARGE_COLUMNS)
      .where('merchant_id', '=', merchantId)
      .where('receiver_id', '=', receiverId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  find(db: Db, merchantId: string, receiverId: string, id: string) {
    return db
      .selectFrom('standing_pix_charges')
      .select(STANDING_CHARGE_COLUMNS)
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('receiver_id', '=', receiverId)
      .executeTakeFirst();
  },

  findByTxid(db: Db, txid: string, options: { forUpdate?: boolean } = {}) {
    let query = db.selectFrom('standing_pix_charges').select(STANDING_CHARGE_COLUMNS).where('txid', '=', txid);
    if (options.forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  /** Guarded: only an ACTIVE charge is disabled. */
  disable(db: Db, id: string, now: Date) {
    return db
      .updateTable('standing_pix_charges')
      .set({ status: 'DISABLED', disabled_at: now })
      .where('id', '=', id)
      .where('status', '=', 'ACTIVE')
      .returning(STANDING_CHARGE_COLUMNS)
      .executeTakeFirst();
  },

  /** The order a PIX (endToEndId) to this charge made already, if any. */
  async orderOfPix(db: Db, chargeId: string, endToEndId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('orders')
      .select('id')
      .where('source_kind', '=', 'STANDING_PIX_CHARGE')
      .where('source_id', '=', chargeId)
      .where('pix_end_to_end_id', '=', endToEndId)
      .executeTakeFirst();
    return row?.id;
  },

  /** The merchant's payer policy and the receiver's document (sealed, as stored). */
  payerRules(db: Db, receiverId: string) {
    return db
      .selectFrom('receivers as r')
      .innerJoin('merchants as m', 'm.id', 'r.merchant_id')
      .select(['m.payer_policy', 'r.document'])
      .where('r.id', '=', receiverId)
      .executeTakeFirstOrThrow() as Promise<{ payer_policy: PayerPolicy; document: string }>;
  },
};
