/**
 * The platform's operators (docs/architecture/back-office.md): creation by invitation (the new
 * operator's first credential is a link emailed to them, operators/invitations.ts), role changes
 * and disabling (each audited in its own transaction), and sign-in with the same rules as
 * merchants' users (users/sessions.ts) under their own cookie. Every operator must enrol TOTP
 * before anything else. Creating, raising and re-enabling an operator take two people once the
 * bootstrap is over (operators/bootstrap.ts, docs/decisions/0024-operators-made-by-two.md);
 * lowering a role and disabling stay one ADMIN's act, the fast answer to a compromised account.
 */
import type { EmailSender } from '../../adapters/email/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { OPERATOR_SESSION_COOKIE } from '../../http/cookies.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import { hashPassword } from '../users/passwords.ts';
import { createSessions } from '../users/sessions.ts';
import { createSignInThrottle } from '../users/sign-in-throttle.ts';
import { createTotp } from '../users/totp.ts';
import { createBootstrapState } from './bootstrap.ts';
import { createOperatorInvitations, type OperatorInvitation } from './invitations.ts';
import { createServiceAccounts } from './service-accounts.ts';
import { deriveKey } from '../../lib/aead.ts';
import { type MasterKeys, masterKeysOf } from '../../lib/rotating-box.ts';
import { type ActiveOperatorSession, createOperatorSessionsRepo, createOperatorsRepo, type Operator, toOperator } from './repo.ts';
import { isRaise, type OperatorRole } from './roles.ts';

type OperatorSignInRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createOperatorsRepo>['signInRecord']>>>;

/** Who acts on operators: an operator (by id) or the admin token / CLI (no id). */
export interface OperatorsActor extends AuditActor {
  operatorId?: string;
}

export interface OperatorChange {
  role?: OperatorRole;
  disabled?: boolean;
}

/** A change that gives more than the operator had: a role whose permissions are not all the current one's, or enabling again. */
export const needsTwo = (before: Operator, change: OperatorChange): boolean => (change.role !== undefined && isRaise(before.role, change.role)) || (change.disabled === false && before.disabled);

const fourEyesRequired = (what: string) =>
  new AppError('FORBIDDEN', `${what} needs two operators once two have enrolled TOTP: propose it (POST /api/v1/admin/approvals) for another operator to approve`, { reason: 'FOUR_EYES_REQUIRED' });

export async function createOperatorsService(deps: { db: Db; clock: Clock; totpKey: string | MasterKeys; email: EmailSender; publicAppUrl: string }) {
  const { db, clock } = deps;
  const repo = createOperatorsRepo(db);
  const sessionsRepo = createOperatorSessionsRepo(db);
  const bootstrap = createBootstrapState(db);
  const invitations = createOperatorInvitations(deps);
  const sessions = await createSessions<OperatorSignInRecord, Operator, ActiveOperatorSession>({
    db,
    throttle: createSignInThrottle({ db, clock, key: deriveKey(masterKeysOf(deps.totpKey).current, 'sign-in-throttle'), scope: 'operator' }),
    people: { ...repo, refusal: (record) => (record.disabled_at ? 'This operator is disabled' : undefined), toPerson: toOperator },
    sessions: sessionsRepo,
    totp: createTotp(deps.totpKey),
    clock,
    // Every operator acts on money or on people's data: TOTP first, whatever the role.
    totpRequired: (operator) => !operator.totpEnabled,
    cookieName: OPERATOR_SESSION_COOKIE,
    enrolmentRoute: 'POST /admin/operators/me/totp',
  });

  /** Applies a checked change in the caller's transaction: their sessions end, audited. */
  async function apply(trx: Trx, id: string, changes: OperatorChange, actor: OperatorsActor, check?: (before: Operator) => void): Promise<Operator> {
    const before = await repo.lock(trx, id);
    if (!before) throw notFound('Operator');
    check?.(before);
    const now = clock.now();
    const disabledAt = changes.disabled === undefined ? undefined : changes.disabled ? (before.disabled ? undefined : now) : null;
    await repo.update(trx, id, { ...(changes.role ? { role: changes.role } : {}), ...(disabledAt !== undefined ? { disabledAt } : {}) }, now);
    await sessionsRepo.revokeAll(trx, id, now);
    const after = (await repo.get(id, trx))!;
    await recordAudit(trx, actor, { action: 'operator.update', targetType: 'operator', targetId: id, details: { before: { role: before.role, disabled: before.disabled }, after: { role: after.role, disabled: after.disabled } } });
    return after;
  }

  return {
    sessions,
    bootstrap,
    invitations,
    serviceAccounts: createServiceAccounts(deps),
    get: (id: string) => repo.get(id),
    list: () => repo.list(),

    /**
     * One person invites a new operator: only during the bootstrap (after it, OPERATOR_CREATE
     * through four-eyes). Answers the invitation; the link goes to the new operator alone.
     */
    async invite(input: { email: string; role: OperatorRole }, actor: OperatorsActor): Promise<OperatorInvitation> {
      return db.transaction().execute(async (trx) => {
        if (await bootstrap.isOverLocked(trx)) throw fourEyesRequired('Creating an operator');
        return invitations.invite(trx, input, actor);
      });
    },

    /**
     * An operator with a known password, no invitation: for the test fixtures and the break-glass
     * CLI only (whoever runs it holds the database already); no route calls it.
     */
    async createWithPassword(input: { email: string; role: OperatorRole; password: string }, actor: OperatorsActor): Promise<{ operator: Operator }> {
      const passwordHash = await hashPassword(input.password);
      const operator = await db.transaction().execute(async (trx) => {
        const created = await repo.insert(trx, { id: newId(), email: input.email.toLowerCase(), role: input.role, passwordHash });
        if (!created) throw new AppError('CONFLICT', 'An operator with this email already exists');
        await recordAudit(trx, actor, { action: 'operator.create', targetType: 'operator', targetId: created.id, details: { before: null, after: { email: created.email, role: created.role } } });
        return created;
      });
      return { operator };
    },

    /**
     * One person's change: lowering a role or disabling, always; raising or enabling only during
     * the bootstrap (after it, OPERATOR_ROLE_CHANGE or OPERATOR_ENABLE through four-eyes). Their
     * sessions end with any change. Nobody changes themselves.
     */
    async update(id: string, changes: OperatorChange, actor: OperatorsActor): Promise<Operator> {
      if (actor.operatorId === id) throw new AppError('CONFLICT', 'An operator cannot change their own role or status');
      return db.transaction().execute(async (trx) => {
        const over = await bootstrap.isOverLocked(trx);
        return apply(trx, id, changes, actor, (before) => {
          if (over && needsTwo(before, changes)) throw fourEyesRequired(changes.disabled === false && before.disabled ? 'Enabling an operator' : 'Raising an operator’s role');
        });
      });
    },

    /** An approved OPERATOR_ROLE_CHANGE or OPERATOR_ENABLE, in the approval's transaction. */
    applyApproved: (trx: Trx, id: string, changes: OperatorChange, actor: OperatorsActor) => apply(trx, id, changes, actor),

    enrolTotp: (operatorId: string) => sessions.enrolTotp(operatorId),
    confirmTotp: (operatorId: string, code: string) => sessions.confirmTotp(operatorId, code),
  };
}

export type OperatorsService = Awaited<ReturnType<typeof createOperatorsService>>;
