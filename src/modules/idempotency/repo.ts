/**
 * SQL of the idempotency_keys table. In-transaction keys are inserted once, COMPLETED, by the
 * effect's transaction (`insertCompleted`, or the caller's own statement from `completedRow`).
 * Held keys are inserted IN_PROGRESS first, and every later write is conditioned on the holder's
 * lock_token, so a request whose row was taken over (its owner died) can never overwrite or
 * delete the answer of the request that took it. Liveness times are the database's.
 */
import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { purgeOlderThan } from '../../platform/leases.ts';
import type { IdempotencyKeyRow, IdempotencyKeysTable } from './tables.ts';
import { IDEMPOTENCY_KEY_COLUMNS } from './tables.ts';

export interface NewIdempotencyKey {
  merchantId: string;
  key: string;
  fingerprint: string;
  method: string;
  route: string;
  lockToken: string;
  ownerId: string;
  requestId: string;
  now: Date;
}

export interface StoredResponse {
  status: number;
  contentType: string | null;
  body: string;
}

/** The row of a key inserted COMPLETED with its answer, by the effect's own transaction. */
export function completedRow(claim: { merchantId: string; key: string; fingerprint: string; method: string; route: string; requestId: string }, response: StoredResponse, now: Date): Insertable<IdempotencyKeysTable> {
  return {
    merchant_id: claim.merchantId,
    key: claim.key,
    fingerprint: claim.fingerprint,
    method: claim.method,
    route: claim.route,
    state: 'COMPLETED',
    // Nobody holds a completed row; the column is NOT NULL for held rows' sake.
    lock_token: '00000000-0000-0000-0000-000000000000',
    owner_id: null,
    locked_at: now,
    request_id: claim.requestId,
    response_status: response.status,
    response_content_type: response.contentType,
    response_body: response.body,
    created_at: now,
    completed_at: now,
  };
}

/** The holder of an IN_PROGRESS row: every write after the insert is conditioned on it. */
export interface KeyHolder {
  merchantId: string;
  key: string;
  lockToken: string;
}

/** The database's clock minus `ms`: liveness compares the database's clock only. */
const dbAgo = (ms: number) => sql<Date>`statement_timestamp() - ${ms} * interval '1 millisecond'`;

export function createIdempotencyRepo(db: Db) {
  const byKey = (merchantId: string, key: string) =>
    db.selectFrom('idempotency_keys').where('merchant_id', '=', merchantId).where('key', '=', key);
  const held = (executor: Db, holder: KeyHolder) =>
    executor
      .updateTable('idempotency_keys')
      .where('merchant_id', '=', holder.merchantId)
      .where('key', '=', holder.key)
      .where('lock_token', '=', holder.lockToken)
      .where('state', '=', 'IN_PROGRESS');

  return {
    db,

    /** The insert is the lock: true when this caller created the row, false when it existed. */
    async insert(row: NewIdempotencyKey): Promise<boolean> {
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({
          merchant_id: row.merchantId,
          key: row.key,
          fingerprint: row.fingerprint,
          method: row.method,
          route: row.route,
          state: 'IN_PROGRESS',
          lock_token: row.lockToken,
          owner_id: row.ownerId,
          locked_at: sql<Date>`statement_timestamp()`,
          request_id: row.requestId,
          created_at: row.now,
        })
        .onConflict((oc) => oc.columns(['merchant_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    /**
     * Inserts a key COMPLETED with its answer through `executor` (the effect's transaction). A
     * concurrent request with the same key makes this wait for its commit and then raise a unique
     * violation (23505), which undoes the loser's transaction.
     */
    async insertCompleted(executor: Db, row: Insertable<IdempotencyKeysTable>): Promise<void> {
      await executor.insertInto('idempotency_keys').values(row).execute();
    },

    /** Stores an answer no transaction stored (a refusal); false when a concurrent request stored its own first. */
    async insertCompletedUnlessTaken(row: Insertable<IdempotencyKeysTable>): Promise<boolean> {
      const inserted = await db
        .insertInto('idempotency_keys')
        .values(row)
        .onConflict((oc) => oc.columns(['merchant_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async find(merchantId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
      return byKey(merchantId, key).select(IDEMPOTENCY_KEY_COLUMNS).executeTakeFirst();
    },

    /**
     * Takes over an IN_PROGRESS row whose holder is gone: its owner process has not beaten for
     * `ownerLeaseMs` (it died), it gave the row up (owner_id null, after a failure past an
     * irreversible effect), or it has held the row for `maxHoldMs` (alive but stuck). The row's
     * own locked_at must also be older than the owner lease, which covers a holder whose first
     * heartbeat has not landed yet. Conditioned on the token seen, so of two retries one wins.
     * Returns the row as taken (with the effect its previous holder recorded), or undefined.
     */
    async takeOver(
      holder: KeyHolder,
      seenToken: string,
      limits: { ownerLeaseMs: number; maxHoldMs: number },
      next: { ownerId: string; requestId: string },
    ): Promise<{ effect: string | null } | undefined> {
      return db
        .updateTable('idempotency_keys as k')
        .set({ lock_token: holder.lockToken, locked_at: sql<Date>`statement_timestamp()`, request_id: next.requestId, owner_id: next.ownerId })
        .where('k.merchant_id', '=', holder.merchantId)
        .where('k.key', '=', holder.key)
        .where('k.state', '=', 'IN_PROGRESS')
        .where('k.lock_token', '=', seenToken)
        .where((eb) =>
          eb.or([
            eb('k.owner_id', 'is', null),
            eb('k.locked_at', '<', dbAgo(limits.maxHoldMs)),
            eb.and([
              eb('k.locked_at', '<', dbAgo(limits.ownerLeaseMs)),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('idempotency_owners as o')
                    .select('o.id')
                    .whereRef('o.id', '=', 'k.owner_id')
                    .where('o.heartbeat_at', '>=', dbAgo(limits.ownerLeaseMs)),
                ),
              ),
            ]),
          ]),
        )
        .returning('k.effect')
        .executeTakeFirst();
    },

    /**
     * Stores the final answer through `executor` (the effect's transaction, or the database);
     * false when the row is no longer this holder's.
     */
    async complete(executor: Db, holder: KeyHolder, response: StoredResponse, now: Date): Promise<boolean> {
      const result = await held(executor, holder)
        .set({
          state: 'COMPLETED',
          response_status: response.status,
          response_content_type: response.contentType,
          response_body: response.body,
          completed_at: now,
        })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Stores what a retry needs to finish an irreversible effect; false when the row is no longer this holder's. */
    async recordEffect(executor: Db, holder: KeyHolder, effect: string): Promise<boolean> {
      const result = await held(executor, holder).set({ effect }).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes this holder's IN_PROGRESS row so the client may retry with the same key. */
    async release(holder: KeyHolder): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('merchant_id', '=', holder.merchantId)
        .where('key', '=', holder.key)
        .where('lock_token', '=', holder.lockToken)
        .where('state', '=', 'IN_PROGRESS')
        .execute();
    },

    /**
     * Gives up a row whose irreversible effect may have happened (the request failed after
     * recording it): the next retry takes it over at once and finishes the effect.
     */
    async abandon(holder: KeyHolder): Promise<void> {
      await held(db, holder).set({ owner_id: null }).execute();
    },

    /** Forgets owners silent for a day: a process that stopped long ago holds no key any more. */
    async deleteSilentOwners(): Promise<void> {
      await db.deleteFrom('idempotency_owners').where('heartbeat_at', '<', dbAgo(86_400_000)).execute();
    },

    /**
     * Deletes up to `limit` rows created before `cutoff`; returns how many. Rows another worker
     * is deleting are skipped, not waited for.
     */
    deleteCreatedBefore(cutoff: Date, limit: number): Promise<number> {
      return purgeOlderThan(db, { table: 'idempotency_keys', column: 'created_at', cutoff, limit });
    },
  };
}

export type IdempotencyRepo = ReturnType<typeof createIdempotencyRepo>;
