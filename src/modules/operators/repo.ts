/** SQL of operators and their sessions. Rows map to the API's shapes here; hashes and sealed secrets never leave. */
import type { Db } from '../../db/database.ts';
import { createPeopleSessionsRepo, OPERATOR_SESSIONS } from '../../platform/people/sessions-repo.ts';
import { createTotpRepo } from '../../platform/people/totp-repo.ts';
import type { OperatorRole } from './roles.ts';
import './tables.ts';

export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
  totpEnabled: boolean;
  disabled: boolean;
  createdAt: string;
}

export interface ActiveOperatorSession {
  id: string;
  operatorId: string;
  role: OperatorRole;
  totpEnabled: boolean;
  lastSeenAt: Date;
  expiresAt: Date;
}

const COLUMNS = ['id', 'email', 'role', 'totp_enabled_at', 'disabled_at', 'created_at'] as const;
type OperatorRow = { id: string; email: string; role: OperatorRole; totp_enabled_at: Date | null; disabled_at: Date | null; created_at: Date };

export const toOperator = (row: OperatorRow): Operator => ({
  id: row.id,
  email: row.email,
  role: row.role,
  totpEnabled: row.totp_enabled_at !== null,
  disabled: row.disabled_at !== null,
  createdAt: row.created_at.toISOString(),
});

export function createOperatorsRepo(db: Db) {
  return {
    ...createTotpRepo(db, 'operators'),
    async signInRecord(email: string) {
      return db
        .selectFrom('operators')
        .select([...COLUMNS, 'password_hash', 'totp_secret_sealed'])
        .where('email', '=', email)
        .executeTakeFirst();
    },
    async get(id: string, trx: Db = db) {
      const row = await trx.selectFrom('operators').select(COLUMNS).where('id', '=', id).executeTakeFirst();
      return row ? toOperator(row) : undefined;
    },
    async list() {
      return (await db.selectFrom('operators').select(COLUMNS).orderBy('created_at').orderBy('id').execute()).map(toOperator);
    },
    async count(trx: Db) {
      const row = await trx.selectFrom('operators').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insert(trx: Db, operator: { id: string; email: string; role: OperatorRole; passwordHash: string }) {
      const row = await trx
        .insertInto('operators')
        .values({ id: operator.id, email: operator.email, role: operator.role, password_hash: operator.passwordHash })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? toOperator(row) : undefined;
    },
    async lock(trx: Db, id: string) {
      const row = await trx.selectFrom('operators').select(COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
      return row ? toOperator(row) : undefined;
    },
    async update(trx: Db, id: string, changes: { role?: OperatorRole; disabledAt?: Date | null }, now: Date) {
      await trx
        .updateTable('operators')
        .set({ ...(changes.role ? { role: changes.role } : {}), ...(changes.disabledAt !== undefined ? { disabled_at: changes.disabledAt } : {}), updated_at: now })
        .where('id', '=', id)
        .execute();
    },
  };
}

/** The unrevoked session with this token hash, if its operator is not disabled. */
async function findActiveSession(db: Db, tokenHash: string): Promise<ActiveOperatorSession | undefined> {
  const row = await db
    .selectFrom('operator_sessions')
    .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
    .select(['operator_sessions.id', 'operator_sessions.operator_id', 'operators.role', 'operators.totp_enabled_at', 'operator_sessions.last_seen_at', 'operator_sessions.expires_at'])
    .where('operator_sessions.token_hash', '=', tokenHash)
    .where('operator_sessions.revoked_at', 'is', null)
    .where('operators.disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, operatorId: row.operator_id, role: row.role, totpEnabled: row.totp_enabled_at !== null, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
}

/** Operators' sessions: the people's sessions repository on `operator_sessions`. */
export const createOperatorSessionsRepo = (db: Db) => createPeopleSessionsRepo(db, OPERATOR_SESSIONS, findActiveSession);
