/**
 * A merchant's people: listing, creation (the demo owner only), role changes and
 * removal (each audited in its own transaction), and TOTP enrolment. Who may do what is the role
 * table (roles.ts): ADMIN manages everyone but owners, OWNER everyone; a merchant always keeps
 * one OWNER. People join by an invitation sent by email to them (links.ts): no route hands one
 * person's password to another (issue 38). `create` with a password serves only the embedded
 * default's demo owner, whose password is written to the data directory.
 */
import type { EmailSender } from '../../adapters/email/port.ts';
import { SESSION_COOKIE } from '../../http/cookies.ts';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { createLinks, type Invitation } from './links.ts';
import { generatePassword, hashPassword } from './passwords.ts';
import { createUsersRepo, toUser, type User } from './repo.ts';
import { can, type Permission, type Role, TOTP_REQUIRED_ROLES } from './roles.ts';
import { type ActiveSession, createSessionsRepo } from './sessions-repo.ts';
import { createSessions } from './sessions.ts';
import { createSignInThrottle } from './sign-in-throttle.ts';
import { createTotp } from './totp.ts';
import { deriveKey } from '../../lib/aead.ts';
import { type MasterKeys, masterKeysOf } from '../../lib/rotating-box.ts';

/** The signed-in person acting. */
export interface Actor {
  merchantId: string;
  userId: string;
  role: Role;
  requestId?: string;
}

/** The same refusal as the route guard's (guard.ts): the role lacks `permission`. */
const forbidden = (message: string, permission: Permission) => new AppError('FORBIDDEN', message, { reason: 'ROLE_NOT_ALLOWED', permission });
export const totpRequired = (user: Pick<User, 'role' | 'totpEnabled'>) => TOTP_REQUIRED_ROLES.includes(user.role) && !user.totpEnabled;

type UserSignInRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createUsersRepo>['signInRecord']>>>;

export async function createUsersService(deps: { db: Db; clock: Clock; totpKey: string | MasterKeys; email: EmailSender; publicAppUrl: string }) {
  const { db, clock } = deps;
  const repo = createUsersRepo(db);
  const sessionsRepo = createSessionsRepo(db);
  const totp = createTotp(deps.totpKey);
  const sessions = await createSessions<UserSignInRecord, User, ActiveSession>({
    db,
    throttle: createSignInThrottle({ db, clock, key: deriveKey(masterKeysOf(deps.totpKey).current, 'sign-in-throttle'), scope: 'user' }),
    people: { ...repo, refusal: (record: UserSignInRecord) => (record.merchant_status === 'ACTIVE' ? undefined : 'Merchant is disabled'), toPerson: toUser },
    sessions: sessionsRepo,
    totp,
    clock,
    totpRequired,
    cookieName: SESSION_COOKIE,
    enrolmentRoute: 'POST /users/me/totp',
  });
  const links = createLinks({ db, clock, email: deps.email, publicAppUrl: deps.publicAppUrl, users: repo, sessions: sessionsRepo });

  /** ADMIN may not touch an OWNER nor make one. */
  function mayManage(actor: Actor, role: Role): void {
    if (!can(actor.role, 'users.manage')) throw forbidden(`A ${actor.role} cannot manage users`, 'users.manage');
    if (role === 'OWNER' && !can(actor.role, 'owners.manage')) throw forbidden('Only an OWNER can manage owners', 'owners.manage');
  }

  async function target(actor: Actor, id: string): Promise<User> {
    const user = await repo.get(actor.merchantId, id);
    if (!user) throw notFound('User');
    return user;
  }

  return {
    sessions,
    links,
    totpRequired,
    get: (merchantId: string, id: string) => repo.get(merchantId, id),
    list: (merchantId: string) => repo.list(merchantId),

    /**
     * A user and, unless a password is given (the demo owner's), a generated one returned once.
     * `actor` undefined: the platform itself (the demo set-up).
     */
    async create(merchantId: string, input: { email: string; role: Role; password?: string }, actor?: Actor): Promise<{ user: User; temporaryPassword: string }> {
      if (actor) mayManage(actor, input.role);
      const temporaryPassword = input.password ?? generatePassword();
      const passwordHash = await hashPassword(temporaryPassword);
      const user = await db.transaction().execute(async (trx) => {
        const created = await repo.insert(trx, { id: newId(), merchantId, email: input.email.toLowerCase(), role: input.role, passwordHash });
        if (!created) throw new AppError('CONFLICT', 'A user with this email already exists');
        await recordAudit(trx, { actor: actor ? `user:${actor.userId}` : 'system', ...(actor?.requestId ? { requestId: actor.requestId } : {}) }, { action: 'user.create', merchantId, targetType: 'user', targetId: created.id, details: { merchantId, role: input.role, after: { email: created.email, role: input.role } } });
        return created;
      });
      return { user, temporaryPassword };
    },

    /** Emails an invitation to join the actor's merchant with `role`, under the same role rules as creation. */
    async invite(actor: Actor, input: { email: string; role: Role }): Promise<Invitation> {
      mayManage(actor, input.role);
      const inviter = await target(actor, actor.userId);
      return links.invite({ merchantId: actor.merchantId, userId: actor.userId, email: inviter.email, ...(actor.requestId ? { requestId: actor.requestId } : {}) }, input);
    },

    /** Pending invitations, for those who may invite (users.manage). */
    async pendingInvitations(actor: Actor): Promise<Invitation[]> {
      if (!can(actor.role, 'users.manage')) throw forbidden(`A ${actor.role} cannot manage users`, 'users.manage');
      return links.pendingInvitations(actor.merchantId);
    },

    /** 404 unless the invitation is the merchant's (asked before the session rule: another merchant's id is 404 for everyone). */
    async assertInvitation(merchantId: string, id: string): Promise<void> {
      if (!(await links.invitation(merchantId, id))) throw notFound('Invitation');
    },

    /** Withdraws an invitation under the rules of making it (an ADMIN cannot withdraw an OWNER's invitation). */
    async withdrawInvitation(actor: Actor, id: string): Promise<void> {
      if (!can(actor.role, 'users.manage')) throw forbidden(`A ${actor.role} cannot manage users`, 'users.manage');
      const invitation = await links.invitation(actor.merchantId, id);
      if (!invitation) throw notFound('Invitation');
      mayManage(actor, invitation.role);
      await links.withdrawInvitation(actor, id);
    },

    async setRole(actor: Actor, id: string, role: Role): Promise<User> {
      const user = await target(actor, id);
      mayManage(actor, user.role);
      mayManage(actor, role);
      return db.transaction().execute(async (trx) => {
        await repo.lockMerchantUsers(trx, actor.merchantId);
        // Read again under the lock: a concurrent change may have moved it since.
        const locked = await repo.get(actor.merchantId, id, trx);
        if (!locked) throw notFound('User');
        mayManage(actor, locked.role);
        if (locked.role === 'OWNER' && role !== 'OWNER' && (await repo.countOwners(trx, actor.merchantId)) <= 1) throw new AppError('CONFLICT', 'A merchant keeps at least one OWNER');
        await repo.setRole(trx, id, role, clock.now());
        await sessionsRepo.revokeAll(trx, id, clock.now());
        await recordAudit(trx, { actor: `user:${actor.userId}`, ...(actor.requestId ? { requestId: actor.requestId } : {}) }, { action: 'user.set_role', merchantId: actor.merchantId, targetType: 'user', targetId: id, details: { from: locked.role, to: role, before: { role: locked.role }, after: { role } } });
        return { ...locked, role };
      });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const user = await target(actor, id);
      mayManage(actor, user.role);
      await db.transaction().execute(async (trx) => {
        await repo.lockMerchantUsers(trx, actor.merchantId);
        const locked = await repo.get(actor.merchantId, id, trx);
        if (!locked) throw notFound('User');
        mayManage(actor, locked.role);
        if (locked.role === 'OWNER' && (await repo.countOwners(trx, actor.merchantId)) <= 1) throw new AppError('CONFLICT', 'A merchant keeps at least one OWNER');
        await repo.remove(trx, id);
        await recordAudit(trx, { actor: `user:${actor.userId}`, ...(actor.requestId ? { requestId: actor.requestId } : {}) }, { action: 'user.remove', merchantId: actor.merchantId, targetType: 'user', targetId: id, details: { role: locked.role, before: { email: locked.email, role: locked.role }, after: null } });
      });
    },

    enrolTotp: (userId: string) => sessions.enrolTotp(userId),
    confirmTotp: (userId: string, code: string) => sessions.confirmTotp(userId, code),
  };
}

export type UsersService = Awaited<ReturnType<typeof createUsersService>>;
