/**
 * Failed sign-ins, counted per (client address, email) pair in `sign_in_failures`, the pair known
 * only by HMAC(key, scope | address prefix | email) (docs/architecture/people-and-sessions.md).
 * From the FREE_FAILURES-th failure of one pair on, that pair waits BASE_BLOCK_MS doubling at
 * each further failure (capped at MAX_BLOCK_MS) and is answered 429 before any password check.
 *
 * Why a pair and not the account: a stranger's failures from their own address block only their
 * own address for that email, never the victim signing in from elsewhere (issue 38 item 4), and
 * an email that exists and one that does not are counted alike, so the 429 reveals nothing. The
 * per-address limiter of every route (src/http/auth-failures.ts) bounds how many emails one
 * address can try, and so how many rows it can write here.
 */
import { createHmac } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { clientPrefix } from '../../lib/client-address.ts';

export const FREE_FAILURES = 5;
const BASE_BLOCK_MS = 30_000;
const MAX_BLOCK_MS = 15 * 60_000;
/** A pair's row is forgotten this long after its last failure (the longest block, with room). */
const FORGET_AFTER_MS = 24 * 60 * 60_000;

export function blockDurationMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_BLOCK_MS, BASE_BLOCK_MS * 2 ** (failures - FREE_FAILURES));
}

export interface SignInThrottle {
  /** Seconds the pair must still wait, or 0. */
  blockedFor(ip: string, email: string): Promise<number>;
  recordFailure(ip: string, email: string): Promise<void>;
  /** A success forgets the pair's failures. */
  clear(ip: string, email: string): Promise<void>;
}

/** `scope` keeps merchants' users and operators apart (one email may be both). */
export function createSignInThrottle(deps: { db: Db; clock: Clock; key: Uint8Array; scope: 'user' | 'operator' }): SignInThrottle {
  const { db, clock } = deps;
  const keyOf = (ip: string, email: string) => createHmac('sha256', deps.key).update(`${deps.scope}\n${clientPrefix(ip)}\n${email.toLowerCase()}`).digest('base64url');

  return {
    async blockedFor(ip, email) {
      const row = await db.selectFrom('sign_in_failures').select('blocked_until').where('key_hash', '=', keyOf(ip, email)).executeTakeFirst();
      const now = clock.now().getTime();
      if (!row?.blocked_until || row.blocked_until.getTime() <= now) return 0;
      return Math.max(1, Math.ceil((row.blocked_until.getTime() - now) / 1000));
    },

    async recordFailure(ip, email) {
      const now = clock.now();
      const keyHash = keyOf(ip, email);
      // One statement, so concurrent failures of one pair all count.
      const row = await db
        .insertInto('sign_in_failures')
        .values({ key_hash: keyHash, failures: 1, blocked_until: null, last_failed_at: now })
        .onConflict((oc) => oc.column('key_hash').doUpdateSet((eb) => ({ failures: eb('sign_in_failures.failures', '+', 1), last_failed_at: now })))
        .returning('failures')
        .executeTakeFirstOrThrow();
      const blockMs = blockDurationMs(row.failures);
      if (blockMs > 0) await db.updateTable('sign_in_failures').set({ blocked_until: new Date(now.getTime() + blockMs) }).where('key_hash', '=', keyHash).execute();
      await db.deleteFrom('sign_in_failures').where('last_failed_at', '<', new Date(now.getTime() - FORGET_AFTER_MS)).execute();
    },

    async clear(ip, email) {
      await db.deleteFrom('sign_in_failures').where('key_hash', '=', keyOf(ip, email)).execute();
    },
  };
}
