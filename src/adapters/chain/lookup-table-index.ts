/**
 * What the batch preparer knows of the treasury's address lookup tables (decision 0056), in
 * memory: the tables the books hold (finalized contents, given by the lookup-tables job) and the
 * destinations batches carried that no table holds yet (the job's next extension takes them).
 *
 * A table is worth loading for a batch when it holds at least two of its accounts: each account
 * loaded saves 31 bytes (an index instead of 32), each table loaded costs 34 (its address and two
 * lengths). The unlisted destinations are a bounded set in insertion order: lost with the process,
 * they come back with the next batch that carries them.
 */
import type { Address } from '@solana/kit';

/** Unlisted destinations kept at most; past it the newest are not kept. */
const UNLISTED_KEPT = 10_000;

export interface LookupTableContents {
  address: string;
  addresses: readonly string[];
}

export interface LookupTableIndex {
  /** The tables to load for a transaction with these accounts: address → its whole content. */
  tablesFor(accounts: readonly Address[]): Record<Address, Address[]>;
  /** Accounts a batch carried; those no table holds become candidates. */
  noteCarried(accounts: readonly string[]): void;
  /** Up to `max` candidates, taken (give back what was not appended with `noteCarried`). */
  takeUnlisted(max: number): Address[];
  /** The tables as the books now hold them. */
  replaceTables(tables: readonly LookupTableContents[]): void;
}

export function createLookupTableIndex(): LookupTableIndex {
  let tables = new Map<Address, Address[]>();
  /** Account → the tables holding it. */
  let holders = new Map<Address, Address[]>();
  const unlisted = new Set<Address>();

  return {
    tablesFor(accounts) {
      const counts = new Map<Address, number>();
      for (const account of new Set(accounts)) for (const table of holders.get(account) ?? []) counts.set(table, (counts.get(table) ?? 0) + 1);
      const chosen: Record<Address, Address[]> = {};
      for (const [table, count] of counts) if (count >= 2) chosen[table] = tables.get(table)!;
      return chosen;
    },
    noteCarried(accounts) {
      for (const account of accounts as readonly Address[]) if (!holders.has(account) && unlisted.size < UNLISTED_KEPT) unlisted.add(account);
    },
    takeUnlisted(max) {
      const taken: Address[] = [];
      for (const account of unlisted) {
        if (taken.length >= max) break;
        unlisted.delete(account);
        if (!holders.has(account)) taken.push(account);
      }
      return taken;
    },
    replaceTables(contents) {
      tables = new Map(contents.map((t) => [t.address as Address, t.addresses as Address[]]));
      holders = new Map();
      for (const [table, addresses] of tables) for (const account of addresses) holders.set(account, [...(holders.get(account) ?? []), table]);
      for (const account of unlisted) if (holders.has(account)) unlisted.delete(account);
    },
  };
}
