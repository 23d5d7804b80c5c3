/** SQL of the sandbox chain. Every function takes the transaction (or root db) it runs in. */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SandboxChainDepositsTable, SandboxChainTransfersTable } from './sandbox-tables.ts';
import { SANDBOX_CHAIN_DEPOSIT_COLUMNS, SANDBOX_CHAIN_TRANSFER_COLUMNS, SANDBOX_DEPOSIT_ADDRESS_COLUMNS } from './sandbox-tables.ts';

export const chainSandboxRepo = {
  /** Inserts unless the order already has an address; then returns undefined. */
  insertDepositAddress(db: Db, row: { address: string; order_id: string; token: string; created_at: Date }) {
    return db
      .insertInto('sandbox_chain_deposit_addresses')
      .values(row)
      .onConflict((oc) => oc.column('order_id').doNothing())
      .returning(SANDBOX_DEPOSIT_ADDRESS_COLUMNS)
      .executeTakeFirst();
  },

  findDepositAddressByOrder(db: Db, orderId: string) {
    return db.selectFrom('sandbox_chain_deposit_addresses').select(SANDBOX_DEPOSIT_ADDRESS_COLUMNS).where('order_id', '=', orderId).executeTakeFirst();
  },

  findDepositAddress(db: Db, address: string) {
    return db.selectFrom('sandbox_chain_deposit_addresses').select(SANDBOX_DEPOSIT_ADDRESS_COLUMNS).where('address', '=', address).executeTakeFirst();
  },

  insertDeposit(db: Db, row: Insertable<SandboxChainDepositsTable>) {
    return db.insertInto('sandbox_chain_deposits').values(row).returning(SANDBOX_CHAIN_DEPOSIT_COLUMNS).executeTakeFirstOrThrow();
  },

  /** Inserts unless the idempotency key is taken; then returns undefined. */
  insertTransfer(db: Db, row: Insertable<SandboxChainTransfersTable>) {
    return db
      .insertInto('sandbox_chain_transfers')
      .values(row)
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning(SANDBOX_CHAIN_TRANSFER_COLUMNS)
      .executeTakeFirst();
  },

  findTransferByIdempotencyKey(db: Db, idempotencyKey: string) {
    return db.selectFrom('sandbox_chain_transfers').select(SANDBOX_CHAIN_TRANSFER_COLUMNS).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  },

  findTransfer(db: Db, txHash: string) {
    return db.selectFrom('sandbox_chain_transfers').select(SANDBOX_CHAIN_TRANSFER_COLUMNS).where('tx_hash', '=', txHash).executeTakeFirst();
  },

  markTransferFailed(db: Db, txHash: string, error: string, now: Date) {
    return db
      .updateTable('sandbox_chain_transfers')
      .set({ status: 'FAILED', error, updated_at: now })
      .where('tx_hash', '=', txHash)
      .returning(SANDBOX_CHAIN_TRANSFER_COLUMNS)
      .executeTakeFirst();
  },

  /** Arms (or re-arms with a new error) the failure of the next transfer to a destination. */
  armTransferFailure(db: Db, destination: string, error: string, now: Date) {
    return db
      .insertInto('sandbox_chain_transfer_failures')
      .values({ destination, error, created_at: now })
      .onConflict((oc) => oc.column('destination').doUpdateSet({ error, created_at: now }))
      .execute();
  },

  /** Disarms and returns the armed failure of a destination, if any. */
  takeTransferFailure(db: Db, destination: string) {
    return db.deleteFrom('sandbox_chain_transfer_failures').where('destination', '=', destination).returning('error').executeTakeFirst();
  },

  /** Arms (or re-arms with a new error) the failure of the transfer made under an idempotency key. */
  armTransferFailureByKey(db: Db, idempotencyKey: string, error: string, now: Date) {
    return db
      .insertInto('sandbox_chain_armed_failures')
      .values({ idempotency_key: idempotencyKey, error, created_at: now })
      .onConflict((oc) => oc.column('idempotency_key').doUpdateSet({ error, created_at: now }))
      .execute();
  },

  /** Disarms and returns the failure armed for an idempotency key, if any. */
  takeTransferFailureByKey(db: Db, idempotencyKey: string) {
    return db.deleteFrom('sandbox_chain_armed_failures').where('idempotency_key', '=', idempotencyKey).returning('error').executeTakeFirst();
  },
};
