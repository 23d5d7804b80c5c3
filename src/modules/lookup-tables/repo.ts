/**
 * SQL of the lookup tables (decision 0056): the tables as finalized, and the one extension in
 * flight, stored before it is sent and settled once, guarded by its status.
 */
import { type Selectable, sql } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';
import type { ChainLookupTableExtensionsTable, LookupTableExtensionStatus } from './tables.ts';

export type ExtensionRow = Selectable<ChainLookupTableExtensionsTable>;

const EXTENSION_COLUMNS = ['id', 'table_address', 'creates', 'addresses', 'tx_hash', 'wire', 'last_valid_block_height', 'status', 'created_at', 'settled_at'] as const satisfies ReadonlyArray<keyof ExtensionRow>;

export const lookupTablesRepo = {
  /** Grows whenever a table is saved (tables are only created and appended to): they are read again only then. */
  async version(db: Db): Promise<string> {
    const row = await db
      .selectFrom('chain_lookup_tables')
      .select([sql<number>`count(*)::int`.as('tables'), sql<string>`coalesce(sum(cardinality(addresses)), 0)::text`.as('addresses')])
      .executeTakeFirstOrThrow();
    return `${row.tables}:${row.addresses}`;
  },

  tables(db: Db) {
    return db.selectFrom('chain_lookup_tables').select(['address', 'authority', 'addresses']).orderBy('created_at').orderBy('address').execute();
  },

  pending(db: Db): Promise<ExtensionRow | undefined> {
    return db.selectFrom('chain_lookup_table_extensions').select(EXTENSION_COLUMNS).where('status', '=', 'PENDING').executeTakeFirst();
  },

  /** Stores a signed extension; false when another is already PENDING (this one is never sent). */
  async insertPending(db: Db, row: Omit<ExtensionRow, 'status' | 'settled_at'>): Promise<boolean> {
    // The partial unique index (one PENDING) is the guard: a second one inserts nothing.
    const result = await db.insertInto('chain_lookup_table_extensions').values({ ...row, status: 'PENDING' }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  },

  /** Settles the PENDING extension; false when it was settled already. */
  async settle(trx: Trx, id: string, status: Exclude<LookupTableExtensionStatus, 'PENDING'>, at: Date): Promise<boolean> {
    const result = await trx.updateTable('chain_lookup_table_extensions').set({ status, settled_at: at }).where('id', '=', id).where('status', '=', 'PENDING').executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /** The table's addresses as the chain finalized them (created on its first extension). */
  async saveTable(trx: Trx, table: { address: string; authority: string; addresses: string[] }, at: Date): Promise<void> {
    await trx
      .insertInto('chain_lookup_tables')
      .values({ ...table, created_at: at, updated_at: at })
      .onConflict((oc) => oc.column('address').doUpdateSet({ addresses: table.addresses, updated_at: at }))
      .execute();
  },
};
