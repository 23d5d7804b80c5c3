/** SQL of standing deposit addresses; every function takes the transaction (or root db) it runs in. */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DestinationPolicy } from '../merchants/tables.ts';
import { STANDING_ADDRESS_COLUMNS, STANDING_DEPOSIT_COLUMNS, type StandingDepositAddressesTable } from './tables.ts';

export const standingAddressesRepo = {
  insert(db: Db, row: Insertable<StandingDepositAddressesTable>) {
    return db.insertInto('standing_deposit_addresses').values(row).returning(STANDING_ADDRESS_COLUMNS).executeTakeFirstOrThrow();
  },

  /** The merchant's standing addresses of one receiver, newest first. */
  listOfReceiver(db: Db, merchantId: string, receiverId: string) {
    return db
      .selectFrom('standing_deposit_addresses')
      .select(STANDING_ADDRESS_COLUMNS)
      .where('merchant_id', '=', merchantId)
      .where('receiver_id', '=', receiverId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  find(db: Db, merchantId: string, receiverId: string, id: string) {
    return db
      .selectFrom('standing_deposit_addresses')
      .select(STANDING_ADDRESS_COLUMNS)
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('receiver_id', '=', receiverId)
      .executeTakeFirst();
  },

  /** Guarded: only an ACTIVE address is disabled. */
  disable(db: Db, id: string, now: Date) {
    return db
      .updateTable('standing_deposit_addresses')
      .set({ status: 'DISABLED', disabled_at: now })
      .where('id', '=', id)
      .where('status', '=', 'ACTIVE')
      .returning(STANDING_ADDRESS_COLUMNS)
      .executeTakeFirst();
  },

  deposits(db: Db, addressId: string) {
    return db.selectFrom('standing_address_deposits').select(STANDING_DEPOSIT_COLUMNS).where('standing_address_id', '=', addressId).orderBy('detected_at', 'desc').orderBy('signature').execute();
  },

  async destinationPolicy(db: Db, merchantId: string): Promise<DestinationPolicy> {
    const row = await db.selectFrom('merchants').select('destination_policy').where('id', '=', merchantId).executeTakeFirstOrThrow();
    return row.destination_policy;
  },
};
