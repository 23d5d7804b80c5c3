/** The sweeps' statements (migrations 0026, 0069, 0071). Every function takes the transaction (or root db) it runs in. */
import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DepositSweepsTable } from './tables.ts';

const SWEEP_COLUMNS = ['s.deposit_address', 's.order_id', 's.payout_batch_id', 's.standing_deposit_signature', 's.token', 's.amount', 's.tx_hash', 's.wire', 's.last_valid_block_height', 's.closes', 's.attempt'] as const;

export const sweepsRepo = {
  /**
   * Up to `limit` credited deposits with no sweep yet, with what their sweep needs (the sealed key
   * of their address), the oldest first. One per address: an order is credited by one deposit
   * only; a payout batch's deposits are swept together once they funded it (what the books
   * credited, `funded_amount_token`; a batch not funded moved nothing in the books). A standing
   * address's deposits each once its PAYOUT was credited with it (the order's `tx_hash` is the
   * deposit's signature: the books hold it), one at a time per address (the oldest, none while
   * one is PENDING; migration 0071); a held one (never posted) is not swept.
   */
  async unswept(db: Db, limit: number) {
    const orders = await db
      .selectFrom('chain_deposits as c')
      .innerJoin('deposit_addresses as d', 'd.owner_address', 'c.deposit_address')
      .innerJoin('orders as o', 'o.id', 'c.order_id')
      .leftJoin('deposit_sweeps as s', 's.deposit_address', 'c.deposit_address')
      .select(['d.reference', 'd.owner_address', 'd.encrypted_private_key', 'd.key_version', 'd.token', 'c.amount', 'c.order_id', sql<string | null>`null::uuid`.as('payout_batch_id'), sql<string | null>`null::text`.as('standing_deposit_signature'), 'o.merchant_id', 'c.detected_at'])
      .where('c.outcome', '=', 'CREDITED')
      .where('s.deposit_address', 'is', null)
      .orderBy('c.detected_at')
      .limit(limit)
      .execute();
    const batches = await db
      .selectFrom('payout_batches as b')
      .innerJoin('deposit_addresses as d', 'd.owner_address', 'b.deposit_address')
      .leftJoin('deposit_sweeps as s', 's.deposit_address', 'b.deposit_address')
      .select([
        'd.reference', 'd.owner_address', 'd.encrypted_private_key', 'd.key_version', 'd.token', sql<string>`b.funded_amount_token::text`.as('amount'),
        sql<string | null>`null::uuid`.as('order_id'), sql<string | null>`b.id`.as('payout_batch_id'), sql<string | null>`null::text`.as('standing_deposit_signature'), 'b.merchant_id', sql<Date>`b.funded_at`.as('detected_at'),
      ])
      .where('b.funded_at', 'is not', null)
      .where('s.deposit_address', 'is', null)
      .orderBy('b.funded_at')
      .limit(limit)
      .execute();
    const standing = await db
      .selectFrom('standing_address_deposits as sd')
      .innerJoin('standing_deposit_addresses as sa', 'sa.id', 'sd.standing_address_id')
      .innerJoin('deposit_addresses as d', 'd.owner_address', 'sa.deposit_address')
      .innerJoin('orders as o', 'o.id', 'sd.order_id')
      .leftJoin('deposit_sweeps as s', 's.standing_deposit_signature', 'sd.signature')
      .select([
        'd.reference', 'd.owner_address', 'd.encrypted_private_key', 'd.key_version', 'd.token', sql<string>`sd.amount_token::text`.as('amount'),
        sql<string | null>`sd.order_id`.as('order_id'), sql<string | null>`null::uuid`.as('payout_batch_id'), sql<string | null>`sd.signature`.as('standing_deposit_signature'), 'sd.merchant_id', 'sd.detected_at',
      ])
      .where('sd.status', '=', 'ORDERED')
      .whereRef('o.tx_hash', '=', 'sd.signature')
      .where('s.deposit_address', 'is', null)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('deposit_sweeps as p').select('p.deposit_address').whereRef('p.deposit_address', '=', 'd.owner_address').where('p.status', '=', 'PENDING'))))
      .orderBy('sd.detected_at')
      .limit(limit)
      .execute();
    const seen = new Set<string>();
    // One per standing address a pass: the next waits for this one to land.
    const firstOfEach = standing.filter((row) => !seen.has(row.owner_address) && seen.add(row.owner_address));
    return [...orders, ...batches, ...firstOfEach].sort((a, b) => new Date(a.detected_at).getTime() - new Date(b.detected_at).getTime()).slice(0, limit);
  },

  /**
   * The sweep, unless its deposit has one already or its address one PENDING (then undefined:
   * another worker stored it first; the unique indexes of migration 0071).
   */
  insert(db: Db, row: Omit<Insertable<DepositSweepsTable>, 'attempt' | 'previous_tx_hashes' | 'failure_reason' | 'fee_lamports' | 'rent_lamports'>) {
    return db
      .insertInto('deposit_sweeps')
      .values({ ...row, failure_reason: null, fee_lamports: null, rent_lamports: null })
      .onConflict((oc) => oc.doNothing())
      .returning('tx_hash')
      .executeTakeFirst();
  },

  /** Up to `limit` sweeps sent (or stored) and not yet landed, the least recently looked at first, with the merchant of their order or batch. */
  pending(db: Db, limit: number) {
    return db
      .selectFrom('deposit_sweeps as s')
      .leftJoin('orders as o', 'o.id', 's.order_id')
      .leftJoin('payout_batches as b', 'b.id', 's.payout_batch_id')
      .select([...SWEEP_COLUMNS, sql<string>`coalesce(o.merchant_id, b.merchant_id)`.as('merchant_id')])
      .where('s.status', '=', 'PENDING')
      .orderBy('s.updated_at')
      .limit(limit)
      .execute();
  },

  /** Looked at now: the next pass starts with the others. */
  touch(db: Db, depositAddress: string, now: Date) {
    return db.updateTable('deposit_sweeps').set({ updated_at: now }).where('deposit_address', '=', depositAddress).where('status', '=', 'PENDING').execute();
  },

  /** Replaces a provably expired transaction, only if it is still the stored one. */
  async replace(db: Db, depositAddress: string, oldTxHash: string, next: { txHash: string; wire: string; lastValidBlockHeight: string; closes: boolean }, now: Date): Promise<boolean> {
    const updated = await db
      .updateTable('deposit_sweeps')
      .set({
        tx_hash: next.txHash,
        wire: next.wire,
        last_valid_block_height: next.lastValidBlockHeight,
        closes: next.closes,
        attempt: sql<number>`attempt + 1`,
        previous_tx_hashes: sql<string[]>`array_append(previous_tx_hashes, ${oldTxHash}::text)`,
        updated_at: now,
      })
      .where('deposit_address', '=', depositAddress)
      .where('status', '=', 'PENDING')
      .where('tx_hash', '=', oldTxHash)
      .returning('tx_hash')
      .executeTakeFirst();
    return updated !== undefined;
  },

  /** PENDING → DONE or FAILED, guarded by the transaction it settles on; false when another worker did it. */
  async settle(db: Db, depositAddress: string, txHash: string, to: { status: 'DONE' | 'FAILED'; failureReason?: string; feeLamports?: string; rentLamports?: string }, now: Date): Promise<boolean> {
    const updated = await db
      .updateTable('deposit_sweeps')
      .set({ status: to.status, failure_reason: to.failureReason ?? null, fee_lamports: to.feeLamports ?? null, rent_lamports: to.rentLamports ?? null, updated_at: now })
      .where('deposit_address', '=', depositAddress)
      .where('status', '=', 'PENDING')
      .where('tx_hash', '=', txHash)
      .returning('tx_hash')
      .executeTakeFirst();
    return updated !== undefined;
  },

  /**
   * The sweeps outstanding, by state, for the gauges (metrics.ts): WAITING (a credited deposit with
   * no sweep yet: the same anti-joins `unswept` runs every pass; a standing address's deposits
   * counted by their own rows, each its own sweep), PENDING and FAILED (through
   * deposit_sweeps_unfinished_idx, migration 0056), each with its count and when the oldest began
   * (the deposit's detection, the sweep's creation). DONE is not counted: it only grows.
   */
  async outstanding(db: Db): Promise<Array<{ state: 'WAITING' | 'PENDING' | 'FAILED'; count: number; oldest: Date | null }>> {
    const addresses = await db
      .selectFrom('chain_deposits as c')
      .leftJoin('deposit_sweeps as s', 's.deposit_address', 'c.deposit_address')
      .select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(c.detected_at)`.as('oldest')])
      .where('c.outcome', '=', 'CREDITED')
      .where('s.deposit_address', 'is', null)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('standing_deposit_addresses as sa').select('sa.id').whereRef('sa.deposit_address', '=', 'c.deposit_address'))))
      .executeTakeFirstOrThrow();
    const standing = await db
      .selectFrom('standing_address_deposits as sd')
      .leftJoin('deposit_sweeps as s', 's.standing_deposit_signature', 'sd.signature')
      .select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(sd.detected_at)`.as('oldest')])
      .where('sd.status', '=', 'ORDERED')
      .where('s.deposit_address', 'is', null)
      .executeTakeFirstOrThrow();
    const oldest = [addresses.oldest, standing.oldest].filter((d): d is Date => d !== null).map((d) => new Date(d));
    const waiting = { count: addresses.count + standing.count, oldest: oldest.length ? new Date(Math.min(...oldest.map((d) => d.getTime()))) : null };
    const sweeps = await db
      .selectFrom('deposit_sweeps')
      .select(['status', sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(created_at)`.as('oldest')])
      .where('status', '<>', 'DONE')
      .groupBy('status')
      .execute();
    const byStatus = new Map(sweeps.map((row) => [row.status, row]));
    return [
      { state: 'WAITING', count: waiting.count, oldest: waiting.oldest },
      ...(['PENDING', 'FAILED'] as const).map((state) => ({ state, count: byStatus.get(state)?.count ?? 0, oldest: byStatus.get(state)?.oldest ?? null })),
    ];
  },
};
