/** Users' sign-in sessions: the people's sessions repository on `user_sessions`, live while the user's merchant is active. */
import type { Db } from '../../db/database.ts';
import { createPeopleSessionsRepo, USER_SESSIONS } from '../../platform/people/sessions-repo.ts';
import type { Role } from './roles.ts';

export interface ActiveSession {
  id: string;
  userId: string;
  merchantId: string;
  role: Role;
  totpEnabled: boolean;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** The unrevoked session with this token hash, with its user and merchant, if the merchant is active. */
async function findActive(db: Db, tokenHash: string): Promise<ActiveSession | undefined> {
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
}

export const createSessionsRepo = (db: Db) => createPeopleSessionsRepo(db, USER_SESSIONS, findActive);

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
