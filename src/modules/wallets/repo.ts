import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ManagedWalletsTable, WalletSignRequestsTable } from './tables.ts';

/** Every function takes the transaction (or root db) it runs in. */
export const walletsRepo = {
  insertReceiverWallet(db: Db, row: Insertable<ManagedWalletsTable>) {
    return db.insertInto('managed_wallets').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** The merchant's own wallet, unless one exists already (then undefined): safe against two concurrent first calls. */
  insertOwnWalletIfAbsent(db: Db, row: Insertable<ManagedWalletsTable>) {
    return db
      .insertInto('managed_wallets')
      .values({ ...row, receiver_id: null })
      .onConflict((oc) => oc.column('merchant_id').where('receiver_id', 'is', null).doNothing())
      .returningAll()
      .executeTakeFirst();
  },

  findOwnWallet(db: Db, merchantId: string) {
    return db.selectFrom('managed_wallets').selectAll().where('merchant_id', '=', merchantId).where('receiver_id', 'is', null).executeTakeFirst();
  },

  findReceiverWallet(db: Db, merchantId: string, receiverId: string) {
    return db.selectFrom('managed_wallets').selectAll().where('merchant_id', '=', merchantId).where('receiver_id', '=', receiverId).executeTakeFirst();
  },

  recordSignRequest(db: Db, row: Insertable<WalletSignRequestsTable>) {
    return db.insertInto('wallet_sign_requests').values(row).execute();
  },
};
