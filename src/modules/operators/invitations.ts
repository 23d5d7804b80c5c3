/**
 * A new operator's first credential reaches only them (docs/decisions/0024-operators-made-by-two.md):
 * whoever makes the operator, alone during the bootstrap or through an approved OPERATOR_CREATE,
 * makes an invitation; a single-use link valid 72 hours goes to the new operator's email, and the
 * operator row is created when they choose their password (POST /admin/auth/invitations/{token}).
 * The table keeps the SHA-256 of the link's 32 random bytes; spending it is a guarded update.
 * Then they sign in and enrol TOTP before anything else, as every operator.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EmailSender } from '../../adapters/email/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import { AppError, providerUnavailable } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { hashPassword } from '../users/passwords.ts';
import { createOperatorsRepo, type Operator } from './repo.ts';
import type { OperatorRole } from './roles.ts';
import './tables.ts';

export const OPERATOR_INVITATION_TTL_MS = 72 * 60 * 60_000;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** An operator invitation as the API shows it (never its token). */
export interface OperatorInvitation {
  id: string;
  email: string;
  role: OperatorRole;
  invitedBy: string;
  approvalId: string | null;
  createdAt: string;
  expiresAt: string;
}

export function createOperatorInvitations(deps: { db: Db; clock: Clock; email: EmailSender; publicAppUrl: string }) {
  const { db, clock } = deps;
  const operators = createOperatorsRepo(db);
  const base = deps.publicAppUrl.replace(/\/+$/, '');

  return {
    /**
     * Records an invitation and emails its link, inside the caller's transaction (the proposal's
     * approval, or the bootstrap's creation): a mail server that fails undoes both (503), and the
     * unsent link never exists. 409 for an email already an operator's.
     */
    async invite(trx: Trx, input: { email: string; role: OperatorRole }, actor: AuditActor & { approvalId?: string }): Promise<OperatorInvitation> {
      const address = input.email.toLowerCase();
      if (await trx.selectFrom('operators').select('id').where('email', '=', address).executeTakeFirst()) throw new AppError('CONFLICT', 'An operator with this email already exists');
      const now = clock.now();
      const token = randomBytes(32).toString('base64url');
      const invitation: OperatorInvitation = { id: newId(), email: address, role: input.role, invitedBy: actor.actor, approvalId: actor.approvalId ?? null, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + OPERATOR_INVITATION_TTL_MS).toISOString() };
      await trx
        .insertInto('operator_invitations')
        .values({ id: invitation.id, email: address, role: input.role, invited_by: actor.actor, approval_id: invitation.approvalId, token_hash: sha256Hex(token), created_at: now, expires_at: invitation.expiresAt })
        .execute();
      await recordAudit(trx, actor, { action: 'operator.invite', targetType: 'operator_invitation', targetId: invitation.id, details: { before: null, after: { email: address, role: input.role, approvalId: invitation.approvalId } } });
      await deps.email
        .send({
          to: address,
          subject: 'You are invited to the back office',
          text: `You are invited as an operator (${input.role}) of the back office. Choose your password at this link within 72 hours (it works once), then sign in and enrol TOTP:\n\n${base}/app/ops/accept-invitation#${token}\n\nNobody else has seen this link or will see your password.\n`,
        })
        .catch((err: unknown) => Promise.reject(providerUnavailable('The invitation email could not be sent; try again', err)));
      return invitation;
    },

    /** Spends a live invitation and creates the operator with the password they chose. 410 LINK_INVALID for an unknown, used or expired link. */
    async accept(token: string, password: string): Promise<Operator> {
      const passwordHash = await hashPassword(password);
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const invitation = await trx
          .updateTable('operator_invitations')
          .set({ used_at: now })
          .where('token_hash', '=', sha256Hex(token))
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning(['id', 'email', 'role', 'invited_by', 'approval_id'])
          .executeTakeFirst();
        if (!invitation) throw new AppError('LINK_INVALID', 'This invitation link is unknown, already used or expired: ask for a new one');
        const operator = await operators.insert(trx, { id: newId(), email: invitation.email, role: invitation.role, passwordHash });
        if (!operator) throw new AppError('CONFLICT', 'An operator with this email already exists');
        await recordAudit(trx, { actor: `operator:${operator.id}` }, { action: 'operator.accept_invitation', targetType: 'operator', targetId: operator.id, details: { before: null, after: { email: operator.email, role: operator.role }, invitationId: invitation.id, invitedBy: invitation.invited_by, approvalId: invitation.approval_id } });
        return operator;
      });
    },
  };
}

export type OperatorInvitations = ReturnType<typeof createOperatorInvitations>;
