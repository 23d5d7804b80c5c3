/**
 * The treasury's address lookup tables kept (decision 0056; CHAIN_PROVIDER=solana-rpc with
 * CHAIN_LOOKUP_TABLES): each pass of the `lookup-tables` job
 * - follows the one extension in flight: sent again while the node does not have it; at
 *   `finalized`, CONFIRMED (the table's addresses read back from the chain and saved) or FAILED
 *   (nothing appended), what the treasury paid posted in the same database transaction
 *   (LOOKUP_TABLE_COSTS); EXPIRED (it can never land), settled with nothing spent. Only then may
 *   another start: one in flight, so a table's positions are the chain's for that one;
 * - gives the batch preparer the tables as finalized (lookup-table-index.ts);
 * - appends the token accounts batches carried that no table holds: to the newest table while it
 *   has room, else to a new one created in the same transaction. Stored signed (one PENDING at a
 *   time, the index's guard), committed, and only then sent, as every treasury transaction is.
 *
 * Addresses not appended (another worker's extension won the guard, one failed or expired) go
 * back to the candidates; the next batch carrying them brings them back after a restart.
 */
import type { LookupTableIndex } from '../../adapters/chain/lookup-table-index.ts';
import type { LookupTableChain } from '../../adapters/chain/lookup-tables-port.ts';
import { LOOKUP_TABLE_CAPACITY } from '../../adapters/chain/lookup-tables.ts';
import type { PreparedTransfer } from '../../adapters/chain/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import type { LookupTableMetrics } from './metrics.ts';
import { type ExtensionRow, lookupTablesRepo as repo } from './repo.ts';

/** Addresses one extension appends: with a table's creation, a transaction holds about 30. */
export const ADDRESSES_PER_EXTENSION = 24;

export interface LookupTableKeeperDeps {
  db: Db;
  clock: Clock;
  chain: LookupTableChain;
  index: LookupTableIndex;
  /** What the treasury paid for an extension (fee, rent of the table's new bytes), in the settling transaction. */
  postCosts: (trx: Trx, extension: { id: string; at: Date }, costs: { feeLamports: bigint; rentLamports: bigint }) => Promise<unknown>;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  metrics?: LookupTableMetrics | undefined;
}

export function createLookupTableKeeper(deps: LookupTableKeeperDeps) {
  const { db, clock, chain, index } = deps;

  const preparedOf = (row: ExtensionRow): PreparedTransfer => ({ txHash: row.tx_hash, wire: row.wire, lastValidBlockHeight: String(row.last_valid_block_height) });

  /** The extension in flight; true once it is settled. */
  async function follow(row: ExtensionRow): Promise<boolean> {
    const prepared = preparedOf(row);
    let state = await chain.getExtensionStatus(prepared);
    if (state.status === 'PENDING' && !state.landed) {
      await chain.sendExtension(prepared);
      state = await chain.getExtensionStatus(prepared);
    }
    const { status } = state;
    if (status === 'PENDING') return false;
    const addresses = status === 'CONFIRMED' ? await chain.tableAddresses(row.table_address) : undefined;
    if (status === 'CONFIRMED' && !addresses) throw new Error(`lookup table ${row.table_address}: its extension ${row.tx_hash} is finalized, the table is not`);
    const now = clock.now();
    const settled = await inTransaction(db, async (trx) => {
      if (!(await repo.settle(trx, row.id, status, now))) return false;
      if (addresses) await repo.saveTable(trx, { address: row.table_address, authority: chain.authority, addresses }, now);
      if (state.costs) await deps.postCosts(trx, { id: row.id, at: now }, { feeLamports: BigInt(state.costs.feeLamports), rentLamports: BigInt(state.costs.rentLamports) });
      return true;
    });
    if (!settled) return true;
    deps.metrics?.settled.inc({ outcome: status });
    if (status === 'CONFIRMED') deps.log?.info({ table: row.table_address, created: row.creates, appended: row.addresses.length, held: addresses!.length }, 'lookup table extended');
    else {
      index.noteCarried(row.addresses);
      deps.log?.warn({ table: row.table_address, signature: row.tx_hash, status, error: state.error }, 'lookup table extension did not land');
    }
    return true;
  }

  /** The tables as saved, read again (and given to the batch preparer) only when one changed. */
  let known: { version: string; tables: Awaited<ReturnType<typeof repo.tables>> } | undefined;
  async function tables() {
    const version = await repo.version(db);
    if (known?.version !== version) {
      known = { version, tables: await repo.tables(db) };
      index.replaceTables(known.tables);
    }
    return known.tables;
  }

  /** One pass; `appended`: the addresses of an extension sent in it. */
  async function run(): Promise<{ appended: number }> {
    const pending = await repo.pending(db);
    if (pending && !(await follow(pending))) return { appended: 0 };
    const saved = await tables();
    const candidates = index.takeUnlisted(ADDRESSES_PER_EXTENSION);
    if (candidates.length === 0) return { appended: 0 };
    const newest = saved.filter((t) => t.authority === chain.authority).at(-1);
    const room = newest ? LOOKUP_TABLE_CAPACITY - newest.addresses.length : 0;
    const appended = room > 0 ? candidates.slice(0, room) : candidates;
    index.noteCarried(candidates.slice(appended.length));
    const prepared = await chain.prepareExtension(room > 0 ? newest!.address : undefined, appended);
    const stored = await repo.insertPending(db, {
      id: newId(),
      table_address: prepared.table,
      creates: room === 0,
      addresses: appended,
      tx_hash: prepared.txHash,
      wire: prepared.wire,
      last_valid_block_height: prepared.lastValidBlockHeight,
      created_at: clock.now(),
    });
    if (!stored) {
      index.noteCarried(appended);
      return { appended: 0 };
    }
    await chain.sendExtension(prepared);
    return { appended: appended.length };
  }

  return { run };
}

export type LookupTableKeeper = ReturnType<typeof createLookupTableKeeper>;
