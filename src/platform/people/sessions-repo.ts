/**
 * SQL of sign-in sessions, one implementation for both kinds of person: merchants' users
 * (`user_sessions.user_id`) and operators (`operator_sessions.operator_id`). The two tables have
 * the same columns and rules (decision 0029 says why they stay two). A session is found by the
 * hash of its cookie value, never the value. What joins a session to a person who may still act
 * differs per kind (a merchant's status, an operator's disabled flag): each kind brings its own
 * `findActive`.
 */
import type { ColumnType, Insertable, Kysely } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface SessionSummary {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
}

/** Where one kind of person keeps its sessions. */
export interface SessionsKind {
  table: 'user_sessions' | 'operator_sessions';
  person: 'user_id' | 'operator_id';
}
export const USER_SESSIONS = { table: 'user_sessions', person: 'user_id' } as const satisfies SessionsKind;
export const OPERATOR_SESSIONS = { table: 'operator_sessions', person: 'operator_id' } as const satisfies SessionsKind;

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** Both tables' shape, under both person columns: each statement names only its kind's. */
interface SessionsTable {
  id: string;
  user_id: string;
  operator_id: string;
  token_hash: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
type SessionsDb = Kysely<Record<SessionsKind['table'], SessionsTable>>;
/** The database's own map knows the tables by their real person column; this view unifies them. */
const sessionsDb = (db: Db) => db as unknown as SessionsDb;

export function createPeopleSessionsRepo<Active>(db: Db, kind: SessionsKind, findActive: (db: Db, tokenHash: string) => Promise<Active | undefined>) {
  const { table, person } = kind;
  return {
    async insert(session: { id: string; personId: string; tokenHash: string; ip: string; userAgent: string | null; now: Date; expiresAt: Date }, trx: Db = db) {
      const row = { id: session.id, [person]: session.personId, token_hash: session.tokenHash, ip: session.ip, user_agent: session.userAgent, created_at: session.now, last_seen_at: session.now, expires_at: session.expiresAt };
      await sessionsDb(trx)
        .insertInto(table)
        .values(row as Insertable<SessionsTable>)
        .execute();
    },
    /** The unrevoked session with this token hash, if its person may still act. */
    findActive: (tokenHash: string) => findActive(db, tokenHash),
    async touch(id: string, now: Date) {
      await sessionsDb(db).updateTable(table).set({ last_seen_at: now }).where('id', '=', id).execute();
    },
    async listFor(personId: string, now: Date): Promise<SessionSummary[]> {
      const rows = await sessionsDb(db)
        .selectFrom(table)
        .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'ip', 'user_agent'])
        .where(person, '=', personId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((r) => ({ id: r.id, createdAt: r.created_at.toISOString(), lastSeenAt: r.last_seen_at.toISOString(), expiresAt: r.expires_at.toISOString(), ip: r.ip, userAgent: r.user_agent }));
    },
    /** Revokes one session of the person; false when it is not theirs or already revoked. */
    async revoke(personId: string, sessionId: string, now: Date): Promise<boolean> {
      const result = await sessionsDb(db).updateTable(table).set({ revoked_at: now }).where('id', '=', sessionId).where(person, '=', personId).where('revoked_at', 'is', null).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async revokeAll(trx: Db, personId: string, now: Date) {
      await sessionsDb(trx).updateTable(table).set({ revoked_at: now }).where(person, '=', personId).where('revoked_at', 'is', null).execute();
    },
    /** Every live session of the person but `keepId`. */
    async revokeOthers(trx: Db, personId: string, keepId: string, now: Date) {
      await sessionsDb(trx).updateTable(table).set({ revoked_at: now }).where(person, '=', personId).where('id', '!=', keepId).where('revoked_at', 'is', null).execute();
    },
  };
}
