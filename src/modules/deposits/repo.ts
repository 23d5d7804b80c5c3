import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ChainDepositsTable, DepositAddressesTable } from './tables.ts';
import { CHAIN_DEPOSIT_COLUMNS } from './tables.ts';

/** What the watcher needs of an address (never its sealed key). */
const WATCH_COLUMNS = ['d.reference', 'd.owner_address', 'd.token_account', 'd.mint', 'd.token', 'd.last_signature'] as const;

/** Every function takes the transaction (or root db) it runs in. */
export const depositsRepo = {
  addressOf(db: Db, reference: string) {
    return db.selectFrom('deposit_addresses').select(['owner_address', 'token', 'token_account']).where('reference', '=', reference).executeTakeFirst();
  },

  /** The address, unless the reference has one already (then undefined). */
  insertAddress(db: Db, row: Insertable<DepositAddressesTable>) {
    return db
      .insertInto('deposit_addresses')
      .values(row)
      .onConflict((oc) => oc.column('reference').doNothing())
      .returning('owner_address')
      .executeTakeFirst();
  },

  /**
   * Up to `limit` addresses still watched, the least recently scanned first: their order awaits
   * its deposit, or expired (or got it) less than `lateWatchMs` ago, so late and second deposits
   * are seen too.
   */
  watched(db: Db, now: Date, lateWatchMs: number, limit: number) {
    return db
      .selectFrom('deposit_addresses as d')
      .innerJoin('orders as o', 'o.deposit_address', 'd.owner_address')
      .select(WATCH_COLUMNS)
      .where((eb) => eb.or([eb('o.status', '=', 'AWAITING_DEPOSIT'), eb('o.expires_at', '>', new Date(now.getTime() - lateWatchMs))]))
      .orderBy('d.scanned_at', (ob) => ob.asc().nullsFirst())
      .orderBy('d.reference')
      .limit(limit)
      .execute();
  },

  /**
   * Every address still watched (as `watched`, no limit), with the balance last handled: a pass
   * reads all their balances in batches and lists signatures only where one moved.
   */
  allWatched(db: Db, now: Date, lateWatchMs: number) {
    return db
      .selectFrom('deposit_addresses as d')
      .innerJoin('orders as o', 'o.deposit_address', 'd.owner_address')
      .select([...WATCH_COLUMNS, 'd.observed_amount'])
      .where((eb) => eb.or([eb('o.status', '=', 'AWAITING_DEPOSIT'), eb('o.expires_at', '>', new Date(now.getTime() - lateWatchMs))]))
      .orderBy('d.reference')
      .execute();
  },

  /**
   * The balance the signatures just handled leave: only if it is still the one read before them
   * (a sweep that forgot it in between wins, and the next pass reads the signatures again).
   */
  observe(db: Db, reference: string, previous: string | null, amount: string) {
    return db
      .updateTable('deposit_addresses')
      .set({ observed_amount: amount })
      .where('reference', '=', reference)
      .where((eb) => (previous === null ? eb('observed_amount', 'is', null) : eb('observed_amount', '=', previous)))
      .execute();
  },

  /** The balance is unknown again (a sweep moved tokens out): the next pass reads the signatures. */
  forgetBalance(db: Db, ownerAddress: string, now: Date) {
    return db.updateTable('deposit_addresses').set({ observed_amount: null, updated_at: now }).where('owner_address', '=', ownerAddress).execute();
  },

  /** Up to `limit` addresses no longer watched whose owner's other mints were not read yet. */
  retiring(db: Db, now: Date, lateWatchMs: number, limit: number) {
    return db
      .selectFrom('deposit_addresses as d')
      .innerJoin('orders as o', 'o.deposit_address', 'd.owner_address')
      .select([...WATCH_COLUMNS, 'o.id as order_id'])
      .where('d.other_mints_checked_at', 'is', null)
      .where('o.status', '<>', 'AWAITING_DEPOSIT')
      .where('o.expires_at', '<=', new Date(now.getTime() - lateWatchMs))
      .orderBy('d.reference')
      .limit(limit)
      .execute();
  },

  markOtherMintsChecked(db: Db, reference: string, now: Date) {
    return db.updateTable('deposit_addresses').set({ other_mints_checked_at: now, updated_at: now }).where('reference', '=', reference).execute();
  },

  /** The address's cursor as committed now (a wake-up's scan may have moved it since the pass read it). */
  async cursor(db: Db, reference: string): Promise<string | null> {
    const row = await db.selectFrom('deposit_addresses').select('last_signature').where('reference', '=', reference).executeTakeFirst();
    return row?.last_signature ?? null;
  },

  /** The cursor moves past `signature` (or only the scan time, without one). */
  advance(db: Db, reference: string, now: Date, signature?: string) {
    return db
      .updateTable('deposit_addresses')
      .set({ scanned_at: now, updated_at: now, ...(signature ? { last_signature: signature } : {}) })
      .where('reference', '=', reference)
      .execute();
  },

  isRecorded(db: Db, signature: string, depositAddress: string) {
    return db.selectFrom('chain_deposits').select('outcome').where('signature', '=', signature).where('deposit_address', '=', depositAddress).executeTakeFirst();
  },

  /** Once per (signature, address): a concurrent watcher that got there first wins. */
  record(db: Db, row: Insertable<ChainDepositsTable>) {
    return db
      .insertInto('chain_deposits')
      .values(row)
      .onConflict((oc) => oc.columns(['signature', 'deposit_address']).doNothing())
      .execute();
  },

  listOf(db: Db, depositAddress: string) {
    return db.selectFrom('chain_deposits').select(CHAIN_DEPOSIT_COLUMNS).where('deposit_address', '=', depositAddress).orderBy('detected_at').execute();
  },
};
