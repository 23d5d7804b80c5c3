/**
 * SQL of wallet ownership (service.ts). A challenge is used by one guarded update (`used_at is
 * null and expires_at > now`): of two concurrent proofs of one challenge, one updates the row and
 * the other finds nothing to update.
 */
import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { WalletOwnershipChallengesTable, WalletOwnershipProofsTable } from './tables.ts';
import { CHALLENGE_COLUMNS, PROOF_COLUMNS } from './tables.ts';

export const walletOwnershipRepo = {
  receiverOf(db: Db, merchantId: string, receiverId: string) {
    return db.selectFrom('receivers').select(['id', 'wallet_address']).where('id', '=', receiverId).where('merchant_id', '=', merchantId).executeTakeFirst();
  },

  insertChallenge(db: Db, row: Insertable<WalletOwnershipChallengesTable>) {
    return db.insertInto('wallet_ownership_challenges').values(row).returning(CHALLENGE_COLUMNS).executeTakeFirstOrThrow();
  },

  findChallenge(db: Db, id: string, merchantId: string, receiverId: string) {
    return db
      .selectFrom('wallet_ownership_challenges')
      .select(CHALLENGE_COLUMNS)
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
    return db.insertInto('wallet_ownership_proofs').values(row).returning(PROOF_COLUMNS).executeTakeFirstOrThrow();
  },

  proofsOf(db: Db, receiverId: string) {
    return db.selectFrom('wallet_ownership_proofs').select(PROOF_COLUMNS).where('receiver_id', '=', receiverId).orderBy('proven_at', 'desc').orderBy('id', 'desc').execute();
  },

  /** The receiver's document, sealed as stored (the service opens it). */
  documentOf(db: Db, receiverId: string) {
    return db.selectFrom('receivers').select('document').where('id', '=', receiverId).executeTakeFirstOrThrow();
  },

  /**
   * Waits, in the caller's transaction, for any other proof of this wallet in flight: two people
   * proving one wallet at once are decided one after the other, so the second sees the first.
   */
  async lockWallet(db: Db, walletAddress: string) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`wallet-ownership:${walletAddress}`}, 0))`.execute(db);
  },

  /** The document hashes of every receiver, of any merchant, that proved this wallet (wallet_ownership_proofs_wallet_idx). */
  proversOf(db: Db, walletAddress: string) {
    return db
      .selectFrom('wallet_ownership_proofs as p')
      .innerJoin('receivers as r', 'r.id', 'p.receiver_id')
      .select(['r.id as receiver_id', 'r.document_hash'])
      .where('p.wallet_address', '=', walletAddress)
      .distinct()
      .execute();
  },

  managedWalletOf(db: Db, receiverId: string) {
    return db.selectFrom('managed_wallets').select(['address', 'created_at']).where('receiver_id', '=', receiverId).executeTakeFirst();
  },
};
