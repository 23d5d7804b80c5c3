/** SQL of the links sent by email (password resets, invitations). Rows are found by their token's hash, never the token. */
import type { Db } from '../../db/database.ts';
import type { Role } from './roles.ts';

/** What an invitation shows (never its token hash). */
const INVITATION_COLUMNS = ['id', 'email', 'role', 'invited_by', 'created_at', 'expires_at'] as const;

export function createLinksRepo(db: Db) {
  return {
    /** The id and email of a user by email (lowercased by the caller). */
    userByEmail: (email: string) => db.selectFrom('users').select(['id', 'email']).where('email', '=', email).executeTakeFirst(),
    async lastResetAt(userId: string): Promise<Date | undefined> {
      const row = await db.selectFrom('password_resets').select('created_at').where('user_id', '=', userId).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
      return row?.created_at;
    },
    async insertReset(reset: { id: string; userId: string; tokenHash: string; now: Date; expiresAt: Date }) {
      await db.insertInto('password_resets').values({ id: reset.id, user_id: reset.userId, token_hash: reset.tokenHash, created_at: reset.now, expires_at: reset.expiresAt }).execute();
    },
    /** Spends a live reset token: its user id, or undefined when it is unknown, used or expired (a guarded transition). */
    async spendReset(trx: Db, tokenHash: string, now: Date): Promise<string | undefined> {
      const row = await trx
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id;
    },
    /** Every other live reset link of the user ends with the one used (an older email must not work afterwards). */
    async spendAllResets(trx: Db, userId: string, now: Date) {
      await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    },
    async setPassword(trx: Db, userId: string, passwordHash: string, now: Date) {
      await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
    },
    passwordHashOf: async (userId: string) => (await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash,
    async insertInvitation(trx: Db, invitation: { id: string; merchantId: string; email: string; role: Role; invitedBy: string; tokenHash: string; now: Date; expiresAt: Date }) {
      await trx
        .insertInto('user_invitations')
        .values({ id: invitation.id, merchant_id: invitation.merchantId, email: invitation.email, role: invitation.role, invited_by: invitation.invitedBy, token_hash: invitation.tokenHash, created_at: invitation.now, expires_at: invitation.expiresAt })
        .execute();
    },
    /** Spends a live invitation: what it invites to, or undefined when it is unknown, used or expired. */
    async spendInvitation(trx: Db, tokenHash: string, now: Date) {
      return trx
        .updateTable('user_invitations')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['id', 'merchant_id', 'email', 'role', 'invited_by'])
        .executeTakeFirst();
    },
    /** A merchant's invitations not used, withdrawn nor expired, newest first. */
    pendingInvitations: (merchantId: string, now: Date) =>
      db
        .selectFrom('user_invitations')
        .select(INVITATION_COLUMNS)
        .where('merchant_id', '=', merchantId)
        .where('used_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .execute(),
    invitation: (merchantId: string, id: string, trx: Db = db) =>
      trx.selectFrom('user_invitations').select([...INVITATION_COLUMNS, 'used_at', 'withdrawn_at']).where('merchant_id', '=', merchantId).where('id', '=', id).executeTakeFirst(),
    /** Guarded: only an invitation neither used nor withdrawn; undefined otherwise. */
    withdrawInvitation: (trx: Db, merchantId: string, id: string, now: Date) =>
      trx
        .updateTable('user_invitations')
        .set({ withdrawn_at: now })
        .where('merchant_id', '=', merchantId)
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .returning(INVITATION_COLUMNS)
        .executeTakeFirst(),
  };
}

export type LinksRepo = ReturnType<typeof createLinksRepo>;
