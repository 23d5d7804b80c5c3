/**
 * The treasury's address lookup tables and their extensions (migration 0078, decision 0056).
 * Merged into the database's table map (`Database` in src/db/schema.ts).
 */
import type { ColumnType } from 'kysely';

export interface ChainLookupTablesTable {
  address: string;
  authority: string;
  /** As the chain finalized them, in table order: an address's position is its index here. */
  addresses: string[];
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

export type LookupTableExtensionStatus = 'PENDING' | 'CONFIRMED' | 'FAILED' | 'EXPIRED';

export interface ChainLookupTableExtensionsTable {
  id: string;
  table_address: string;
  /** The transaction creates the table before appending. */
  creates: boolean;
  addresses: string[];
  tx_hash: string;
  wire: string;
  last_valid_block_height: ColumnType<string, string | bigint, string | bigint>;
  status: LookupTableExtensionStatus;
  created_at: ColumnType<Date, Date | string, never>;
  settled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

declare module '../../db/schema.ts' {
  interface Database {
    chain_lookup_tables: ChainLookupTablesTable;
    chain_lookup_table_extensions: ChainLookupTableExtensionsTable;
  }
}
