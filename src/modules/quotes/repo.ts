import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { QuotesTable } from './tables.ts';
import { QUOTE_COLUMNS } from './tables.ts';

/** Every function takes the transaction (or root db) it runs in; every read is scoped by merchant. */
export const quotesRepo = {
  insert(db: Db, quote: Insertable<QuotesTable>) {
    return db.insertInto('quotes').values(quote).returning(QUOTE_COLUMNS).executeTakeFirstOrThrow();
  },

  find(db: Db, merchantId: string, id: string) {
    return db.selectFrom('quotes').select(QUOTE_COLUMNS).where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst();
  },

  /**
   * Gives the quote to one order, atomically: only while it is unused and unexpired at `now`.
   * Two orders racing for it queue on the row lock; the second finds it used and gets no row.
   */
  consume(db: Db, input: { merchantId: string; id: string; orderId: string; now: Date }) {
    return db
      .updateTable('quotes')
      .set({ used_by_order_id: input.orderId })
      .where('id', '=', input.id)
      .where('merchant_id', '=', input.merchantId)
      .where('used_by_order_id', 'is', null)
      .where('expires_at', '>', input.now)
      .returning('id')
      .executeTakeFirst();
  },
};
