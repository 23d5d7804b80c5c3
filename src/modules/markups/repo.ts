import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OrderType } from '../../lib/order-types.ts';
import { MARKUP_COLUMNS, type MerchantMarkupsTable } from './tables.ts';

/** Every function takes the transaction (or root db) it runs in; every read is scoped by merchant. */
export const markupsRepo = {
  list(db: Db, merchantId: string) {
    return db.selectFrom('merchant_markups').select(MARKUP_COLUMNS).where('merchant_id', '=', merchantId).orderBy('order_type').execute();
  },

  find(db: Db, merchantId: string, orderType: OrderType) {
    return db.selectFrom('merchant_markups').select(MARKUP_COLUMNS).where('merchant_id', '=', merchantId).where('order_type', '=', orderType).executeTakeFirst();
  },

  /** The row as it was, locked, so two changes of one merchant's terms run one after the other and each audits the true "before". */
  findForUpdate(db: Db, merchantId: string, orderType: OrderType) {
    return db.selectFrom('merchant_markups').select(MARKUP_COLUMNS).where('merchant_id', '=', merchantId).where('order_type', '=', orderType).forUpdate().executeTakeFirst();
  },

  upsert(db: Db, row: Insertable<MerchantMarkupsTable>) {
    return db
      .insertInto('merchant_markups')
      .values(row)
      .onConflict((oc) => oc.columns(['merchant_id', 'order_type']).doUpdateSet({ bps: row.bps, flat_brl: row.flat_brl, cap_brl: row.cap_brl, updated_at: row.updated_at }))
      .returning(MARKUP_COLUMNS)
      .executeTakeFirstOrThrow();
  },
};

export type MarkupRow = Awaited<ReturnType<typeof markupsRepo.list>>[number];
