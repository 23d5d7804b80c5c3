/**
 * Links sent by email (docs/architecture/people-and-sessions.md#links-by-email): a password
 * reset for a forgotten password, an invitation that creates a user, and the signed-in person's
 * own password change. A link carries 32 random bytes; the table keeps only their SHA-256, and
 * spending one is a guarded update (unused and unexpired), so it works once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EmailSender } from '../../adapters/email/port.ts';
import type { Db } from '../../db/database.ts';
import { AppError, notFound, providerUnavailable } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { createLinksRepo } from './links-repo.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { User, UsersRepo } from './repo.ts';
import type { Role } from './roles.ts';
import type { SessionsRepo } from './sessions-repo.ts';

export const RESET_TTL_MS = 30 * 60_000;
export const INVITATION_TTL_MS = 72 * 60 * 60_000;
/** One reset email per account per this interval at most: the public route must not be a way to flood someone's inbox. */
const RESET_EMAIL_INTERVAL_MS = 60_000;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const linkInvalid = (what: string) => new AppError('LINK_INVALID', `This ${what} link is unknown, already used or expired: ask for a new one`);

/** An invitation as the API shows it (never its token). */
export interface Invitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

const toInvitation = (row: { id: string; email: string; role: Role; invited_by: string | null; created_at: Date; expires_at: Date }): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  invitedBy: row.invited_by,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
});

export interface LinksDeps {
  db: Db;
  clock: Clock;
  email: EmailSender;
  /** Links start with it: `<publicAppUrl>/app/reset-password#<token>`, the dashboard's page (a fragment never reaches a server's logs). */
  publicAppUrl: string;
  users: UsersRepo;
  sessions: SessionsRepo;
}

export function createLinks(deps: LinksDeps) {
  const { db, clock, email } = deps;
  const repo = createLinksRepo(db);
  const base = deps.publicAppUrl.replace(/\/+$/, '');

  return {
    /**
     * Emails a reset link when the email is a user's; nothing otherwise. The route answers 202
     * before this runs, so its answer and timing say nothing about which emails exist.
     */
    async requestReset(address: string): Promise<void> {
      const user = await repo.userByEmail(address.toLowerCase());
      if (!user) return;
      const now = clock.now();
      const last = await repo.lastResetAt(user.id);
      if (last && now.getTime() - last.getTime() < RESET_EMAIL_INTERVAL_MS) return;
      const token = newToken();
      await repo.insertReset({ id: newId(), userId: user.id, tokenHash: sha256Hex(token), now, expiresAt: new Date(now.getTime() + RESET_TTL_MS) });
      await email.send({
        to: user.email,
        subject: 'Reset your password',
        text: `Someone asked to reset the password of ${user.email}. To choose a new one, open this link within 30 minutes (it works once):\n\n${base}/app/reset-password#${token}\n\nIf it was not you, ignore this email: your password stays as it is.\n`,
      });
    },

    /** Sets the password behind a live reset link, spends every reset link of the user and ends all their sessions. */
    async completeReset(token: string, password: string): Promise<void> {
      const passwordHash = await hashPassword(password);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const userId = await repo.spendReset(trx, sha256Hex(token), now);
        if (!userId) throw linkInvalid('password reset');
        await repo.setPassword(trx, userId, passwordHash, now);
        await repo.spendAllResets(trx, userId, now);
        await deps.sessions.revokeAll(trx, userId, now);
        await recordAudit(trx, { actor: `user:${userId}` }, { action: 'user.password_reset', targetType: 'user', targetId: userId, details: {} });
      });
    },

    /** The signed-in person's change: the current password must match; every other session ends. */
    async changePassword(actor: { userId: string; sessionId: string; requestId?: string }, currentPassword: string, newPassword: string): Promise<void> {
      if (!(await verifyPassword(await repo.passwordHashOf(actor.userId), currentPassword))) {
        throw new AppError('VALIDATION_ERROR', 'currentPassword is not the current password', { 'body.currentPassword': 'is not the current password' });
      }
      const passwordHash = await hashPassword(newPassword);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await repo.setPassword(trx, actor.userId, passwordHash, now);
        await repo.spendAllResets(trx, actor.userId, now);
        await deps.sessions.revokeOthers(trx, actor.userId, actor.sessionId, now);
        await recordAudit(trx, { actor: `user:${actor.userId}`, ...(actor.requestId ? { requestId: actor.requestId } : {}) }, { action: 'user.password_change', targetType: 'user', targetId: actor.userId, details: {} });
      });
    },

    /**
     * Emails an invitation; the caller has checked the inviter may grant `role`. 409 when the email
     * is already a user's. Audited (`user.invite`) with the invitation, before the email goes.
     */
    async invite(inviter: { merchantId: string; userId: string; email: string; requestId?: string }, input: { email: string; role: Role }): Promise<Invitation> {
      const address = input.email.toLowerCase();
      if (await repo.userByEmail(address)) throw new AppError('CONFLICT', 'A user with this email already exists');
      const now = clock.now();
      const token = newToken();
      const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
      const invitation: Invitation = { id: newId(), email: address, role: input.role, invitedBy: inviter.userId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() };
      await db.transaction().execute(async (trx) => {
        await repo.insertInvitation(trx, { id: invitation.id, merchantId: inviter.merchantId, email: address, role: input.role, invitedBy: inviter.userId, tokenHash: sha256Hex(token), now, expiresAt });
        await recordAudit(trx, { actor: `user:${inviter.userId}`, ...(inviter.requestId ? { requestId: inviter.requestId } : {}) }, { action: 'user.invite', merchantId: inviter.merchantId, targetType: 'invitation', targetId: invitation.id, details: { merchantId: inviter.merchantId, after: invitation } });
      });
      await email
        .send({
          to: address,
          subject: 'You are invited',
          text: `${inviter.email} invited you as ${input.role}. To accept, choose your password at this link within 72 hours (it works once):\n\n${base}/app/accept-invitation#${token}\n`,
        })
        // The mail server's failure is the provider's, not ours: 503, and the inviter asks again (the unsent link expires unused).
        .catch((err: unknown) => Promise.reject(providerUnavailable('The invitation email could not be sent; try again', err)));
      return invitation;
    },

    /** The merchant's invitations still waiting to be accepted (not used, withdrawn nor expired). */
    async pendingInvitations(merchantId: string): Promise<Invitation[]> {
      return (await repo.pendingInvitations(merchantId, clock.now())).map(toInvitation);
    },

    /** One invitation of the merchant, with its state; another merchant's is undefined. */
    invitation: (merchantId: string, id: string) => repo.invitation(merchantId, id),

    /**
     * Withdraws a pending invitation: its link then answers 410 LINK_INVALID like a used one.
     * Withdrawing a withdrawn one answers it again; a used one is 409 (the person is a user now).
     */
    async withdrawInvitation(actor: { merchantId: string; userId: string; requestId?: string }, id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const withdrawn = await repo.withdrawInvitation(trx, actor.merchantId, id, clock.now());
        if (!withdrawn) {
          const existing = await repo.invitation(actor.merchantId, id, trx);
          if (!existing) throw notFound('Invitation');
          if (existing.withdrawn_at) return;
          throw new AppError('CONFLICT', 'This invitation was already accepted: remove the user instead (DELETE /users/{id})');
        }
        await recordAudit(trx, { actor: `user:${actor.userId}`, ...(actor.requestId ? { requestId: actor.requestId } : {}) }, { action: 'user.withdraw_invitation', merchantId: actor.merchantId, targetType: 'invitation', targetId: id, details: { merchantId: actor.merchantId, before: toInvitation(withdrawn), after: null } });
      });
    },

    /** Creates the invited user with the chosen password and spends the invitation. */
    async acceptInvitation(token: string, password: string): Promise<User> {
      const passwordHash = await hashPassword(password);
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const invitation = await repo.spendInvitation(trx, sha256Hex(token), now);
        if (!invitation) throw linkInvalid('invitation');
        const user = await deps.users.insert(trx, { id: newId(), merchantId: invitation.merchant_id, email: invitation.email, role: invitation.role, passwordHash });
        if (!user) throw new AppError('CONFLICT', 'A user with this email already exists');
        await recordAudit(trx, { actor: `user:${user.id}` }, { action: 'user.accept_invitation', merchantId: invitation.merchant_id, targetType: 'user', targetId: user.id, details: { merchantId: invitation.merchant_id, role: invitation.role, invitedBy: invitation.invited_by } });
        return user;
      });
    },
  };
}

export type Links = ReturnType<typeof createLinks>;
