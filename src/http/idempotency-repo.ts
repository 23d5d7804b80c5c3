/**
 * SQL of the idempotency_keys table. Every write that follows the insert is conditioned on the
 * holder's lock_token, so a request whose row was taken over (its lease expired) can never
 * overwrite or delete the answer of the request that took it.
 */
import type { Db } from '../db/database.ts';
import { purgeOlderThan } from '../db/leases.ts';
import type { IdempotencyKeyRow } from './idempotency-tables.ts';

export interface NewIdempotencyKey {
  merchantId: string;
  key: string;
  fingerprint: string;
  method: string;
  route: string;
  lockToken: string;
  requestId: string;
  now: Date;
}

export interface StoredResponse {
  status: number;
  contentType: string | null;
  body: string;
}

export function createIdempotencyRepo(db: Db) {
  const byKey = (merchantId: string, key: string) =>
    db.selectFrom('idempotency_keys').where('merchant_id', '=', merchantId).where('key', '=', key);

  return {
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
          locked_at: row.now,
          request_id: row.requestId,
          created_at: row.now,
        })
        .onConflict((oc) => oc.columns(['merchant_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async find(merchantId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
      return byKey(merchantId, key).selectAll().executeTakeFirst();
    },

    /**
     * Takes over an IN_PROGRESS row whose holder has not finished since `staleBefore` (its process
     * presumably died). Conditioned on the token seen, so of two retries only one wins.
     */
    async takeOver(
      merchantId: string,
      key: string,
      seenToken: string,
      staleBefore: Date,
      next: { lockToken: string; requestId: string; now: Date },
    ): Promise<boolean> {
      const taken = await db
        .updateTable('idempotency_keys')
        .set({ lock_token: next.lockToken, locked_at: next.now, request_id: next.requestId })
        .where('merchant_id', '=', merchantId)
        .where('key', '=', key)
        .where('state', '=', 'IN_PROGRESS')
        .where('lock_token', '=', seenToken)
        .where('locked_at', '<', staleBefore)
        .returning('key')
        .executeTakeFirst();
      return taken !== undefined;
    },

    /** Stores the final answer; false when the row is no longer this holder's. */
    async complete(merchantId: string, key: string, lockToken: string, response: StoredResponse, now: Date): Promise<boolean> {
      const result = await db
        .updateTable('idempotency_keys')
        .set({
          state: 'COMPLETED',
          response_status: response.status,
          response_content_type: response.contentType,
          response_body: response.body,
          completed_at: now,
        })
        .where('merchant_id', '=', merchantId)
        .where('key', '=', key)
        .where('lock_token', '=', lockToken)
        .where('state', '=', 'IN_PROGRESS')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes this holder's IN_PROGRESS row so the client may retry with the same key. */
    async release(merchantId: string, key: string, lockToken: string): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('merchant_id', '=', merchantId)
        .where('key', '=', key)
        .where('lock_token', '=', lockToken)
        .where('state', '=', 'IN_PROGRESS')
        .execute();
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
