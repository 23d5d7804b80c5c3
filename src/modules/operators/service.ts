/**
 * The platform's operators (docs/architecture/back-office.md): creation with a generated password
 * shown once, role changes and disabling (each audited in its own transaction), and sign-in with
 * the same rules as merchants' users (users/sessions.ts) under their own cookie. Every operator
 * must enrol TOTP before anything else. The first operator is created with the admin token (or
 * the CLI); after that, operators with `operators.manage` create the others.
 */
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { OPERATOR_SESSION_COOKIE } from '../../http/cookies.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditActor, recordAudit } from '../audit/record.ts';
import { generatePassword, hashPassword } from '../users/passwords.ts';
import { createSessions } from '../users/sessions.ts';
import { createSignInThrottle } from '../users/sign-in-throttle.ts';
import { createTotp } from '../users/totp.ts';
import { deriveKey } from '../../lib/aead.ts';
import { type MasterKeys, masterKeysOf } from '../../lib/rotating-box.ts';
import { type ActiveOperatorSession, createOperatorSessionsRepo, createOperatorsRepo, type Operator, toOperator } from './repo.ts';
import type { OperatorRole } from './roles.ts';

type OperatorSignInRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createOperatorsRepo>['signInRecord']>>>;

/** Who acts on operators: an operator (by id) or the admin token / CLI (no id). */
export interface OperatorsActor extends AuditActor {
  operatorId?: string;
}

export async function createOperatorsService(deps: { db: Db; clock: Clock; totpKey: string | MasterKeys }) {
  const { db, clock } = deps;
  const repo = createOperatorsRepo(db);
  const sessionsRepo = createOperatorSessionsRepo(db);
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

  return {
    sessions,
    get: (id: string) => repo.get(id),
    list: () => repo.list(),

    /** An operator with a generated password, returned once (the creator hands it over; TOTP is enrolled at first sign-in). */
    async create(input: { email: string; role: OperatorRole; password?: string }, actor: OperatorsActor): Promise<{ operator: Operator; temporaryPassword: string }> {
      const temporaryPassword = input.password ?? generatePassword();
      const passwordHash = await hashPassword(temporaryPassword);
      const operator = await db.transaction().execute(async (trx) => {
        const created = await repo.insert(trx, { id: newId(), email: input.email.toLowerCase(), role: input.role, passwordHash });
        if (!created) throw new AppError('CONFLICT', 'An operator with this email already exists');
        await recordAudit(trx, actor, { action: 'operator.create', targetType: 'operator', targetId: created.id, details: { before: null, after: { email: created.email, role: created.role } } });
        return created;
      });
      return { operator, temporaryPassword };
    },

    /** Changes an operator's role or disables/enables them; their sessions end with either. Nobody changes themselves. */
    async update(id: string, changes: { role?: OperatorRole; disabled?: boolean }, actor: OperatorsActor): Promise<Operator> {
      if (actor.operatorId === id) throw new AppError('CONFLICT', 'An operator cannot change their own role or status');
      return db.transaction().execute(async (trx) => {
        const before = await repo.lock(trx, id);
        if (!before) throw notFound('Operator');
        const now = clock.now();
        const disabledAt = changes.disabled === undefined ? undefined : changes.disabled ? (before.disabled ? undefined : now) : null;
        await repo.update(trx, id, { ...(changes.role ? { role: changes.role } : {}), ...(disabledAt !== undefined ? { disabledAt } : {}) }, now);
        await sessionsRepo.revokeAll(trx, id, now);
        const after = (await repo.get(id, trx))!;
        await recordAudit(trx, actor, { action: 'operator.update', targetType: 'operator', targetId: id, details: { before: { role: before.role, disabled: before.disabled }, after: { role: after.role, disabled: after.disabled } } });
        return after;
      });
    },

    enrolTotp: (operatorId: string) => sessions.enrolTotp(operatorId),
    confirmTotp: (operatorId: string, code: string) => sessions.confirmTotp(operatorId, code),
  };
}

export type OperatorsService = Awaited<ReturnType<typeof createOperatorsService>>;
