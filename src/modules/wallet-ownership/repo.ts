/**
 * SQL of wallet ownership (service.ts). A challenge is used by one guarded update (`used_at is
 * null and expires_at > now`): of two concurrent proofs of one challenge, one updates the row and
 * the other finds nothing to update.
 */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { WalletOwnershipChallengesTable, WalletOwnershipProofsTable } from './tables.ts';

export const walletOwnershipRepo = {
  receiverOf(db: Db, merchantId: string, receiverId: string) {
    return db.selectFrom('receivers').select(['id', 'wallet_address']).where('id', '=', receiverId).where('merchant_id', '=', merchantId).executeTakeFirst();
  },

  insertChallenge(db: Db, row: Insertable<WalletOwnershipChallengesTable>) {
    return db.insertInto('wallet_ownership_challenges').values(row).returningAll().executeTakeFirstOrThrow();
  },

  findChallenge(db: Db, id: string, merchantId: string, receiverId: string) {
    return db
      .selectFrom('wallet_ownership_challenges')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('receiver_id', '=', receiverId)
      .executeTakeFirst();
  },

  /** Marks the challenge used unless it is used or expired already; undefined then. */
  useChallenge(db: Db, id: string, now: Date) {
    return db
      .updateTable('wallet_ownership_challenges')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('id')
      .executeTakeFirst();
  },

  insertProof(db: Db, row: Insertable<WalletOwnershipProofsTable>) {
    return db.insertInto('wallet_ownership_proofs').values(row).returningAll().executeTakeFirstOrThrow();
  },

  proofsOf(db: Db, receiverId: string) {
    return db.selectFrom('wallet_ownership_proofs').selectAll().where('receiver_id', '=', receiverId).orderBy('proven_at', 'desc').orderBy('id', 'desc').execute();
  },

  managedWalletOf(db: Db, receiverId: string) {
    return db.selectFrom('managed_wallets').select(['address', 'created_at']).where('receiver_id', '=', receiverId).executeTakeFirst();
  },
};
