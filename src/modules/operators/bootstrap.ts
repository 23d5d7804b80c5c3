/**
 * When one person may still make operators (docs/decisions/0024-operators-made-by-two.md): a fresh
 * install has nobody to be the second pair of eyes, so until two operators have enrolled TOTP the
 * admin token, or an ADMIN operator alone, may create and raise operators. From the second
 * enrolment on, that takes a proposal and another operator's approval, and the admin token steps
 * aside. Operators are never deleted and an enrolment is never undone, so both facts only ever
 * become true: once seen true they are remembered (no query per request afterwards), and
 * disabling operators cannot reopen the bootstrap.
 */
import { sql } from 'kysely';
import type { Db, Trx } from '../../db/database.ts';

/** Enrolled operators needed before creating or raising one takes two people. */
export const BOOTSTRAP_ENROLLED_OPERATORS = 2;

export function createBootstrapState(db: Db) {
  let over = false;
  let anyOperator = false;
  return {
    /** True from the second operator with TOTP enrolled (disabled ones count: the bootstrap never reopens). A read for the guard, locking nothing. */
    async isOver(): Promise<boolean> {
      if (over) return true;
      const row = await db.selectFrom('operators').select(sql<string>`count(*)`.as('n')).where('totp_enabled_at', 'is not', null).executeTakeFirstOrThrow();
      over = Number(row.n) >= BOOTSTRAP_ENROLLED_OPERATORS;
      return over;
    },
    /**
     * The same answer for a one-person act, in its transaction (invite, raise, enable), under a
     * lock on every operator row, taken in id order (two such acts never deadlock). An enrolment
     * updates its operator's row, so one in flight commits before this count and is counted, and
     * one starting now waits until the act commits: no one-person act is decided on a count an
     * enrolment is changing (the race an earlier review found). Only while the bootstrap lasts,
     * when operators are few; once over, nothing is locked again.
     */
    async isOverLocked(trx: Trx): Promise<boolean> {
      if (over) return true;
      const rows = await trx.selectFrom('operators').select('totp_enabled_at').orderBy('id').forUpdate().execute();
      over = rows.filter((row) => row.totp_enabled_at !== null).length >= BOOTSTRAP_ENROLLED_OPERATORS;
      return over;
    },
    /** True once any operator exists: from then on four-eyes routes refuse the admin token. */
    async anyOperator(): Promise<boolean> {
      if (anyOperator) return true;
      anyOperator = (await db.selectFrom('operators').select('id').limit(1).executeTakeFirst()) !== undefined;
      return anyOperator;
    },
  };
}

export type BootstrapState = ReturnType<typeof createBootstrapState>;
