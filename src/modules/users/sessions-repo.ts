/** SQL of sign-in sessions. A session is found by the hash of its cookie value, never the value. */
import type { Db } from '../../db/database.ts';
import type { Role } from './roles.ts';

export interface SessionSummary {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
}

export interface ActiveSession {
  id: string;
  userId: string;
  merchantId: string;
  role: Role;
  totpEnabled: boolean;
  lastSeenAt: Date;
  expiresAt: Date;
}

export function createSessionsRepo(db: Db) {
  return {
    async insert(session: { id: string; personId: string; tokenHash: string; ip: string; userAgent: string | null; now: Date; expiresAt: Date }, trx: Db = db) {
      await trx
        .insertInto('user_sessions')
        .values({ id: session.id, user_id: session.personId, token_hash: session.tokenHash, ip: session.ip, user_agent: session.userAgent, created_at: session.now, last_seen_at: session.now, expires_at: session.expiresAt })
        .execute();
    },
    /** The unrevoked session with this token hash, with its user and merchant, if the merchant is active. */
    async findActive(tokenHash: string): Promise<ActiveSession | undefined> {
      const row = await db
        .selectFrom('user_sessions')
        .innerJoin('users', 'users.id', 'user_sessions.user_id')
        .innerJoin('merchants', 'merchants.id', 'users.merchant_id')
        .select(['user_sessions.id', 'user_sessions.user_id', 'users.merchant_id', 'users.role', 'users.totp_enabled_at', 'user_sessions.last_seen_at', 'user_sessions.expires_at'])
        .where('user_sessions.token_hash', '=', tokenHash)
        .where('user_sessions.revoked_at', 'is', null)
        .where('merchants.status', '=', 'ACTIVE')
        .executeTakeFirst();
      if (!row) return undefined;
      return { id: row.id, userId: row.user_id, merchantId: row.merchant_id, role: row.role, totpEnabled: row.totp_enabled_at !== null, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
    },
    async touch(id: string, now: Date) {
      await db.updateTable('user_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
    },
    async listFor(userId: string, now: Date): Promise<SessionSummary[]> {
      const rows = await db
        .selectFrom('user_sessions')
        .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'ip', 'user_agent'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((r) => ({ id: r.id, createdAt: r.created_at.toISOString(), lastSeenAt: r.last_seen_at.toISOString(), expiresAt: r.expires_at.toISOString(), ip: r.ip, userAgent: r.user_agent }));
    },
    /** Revokes one session of the user; false when it is not theirs or already revoked. */
    async revoke(userId: string, sessionId: string, now: Date): Promise<boolean> {
      const result = await db.updateTable('user_sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async revokeAll(trx: Db, userId: string, now: Date) {
      await trx.updateTable('user_sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    },
    /** Every live session of the user but `keepId`. */
    async revokeOthers(trx: Db, userId: string, keepId: string, now: Date) {
      await trx.updateTable('user_sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('id', '!=', keepId).where('revoked_at', 'is', null).execute();
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
