/** SQL of operators and their sessions. Rows map to the API's shapes here; hashes and sealed secrets never leave. */
import type { Db } from '../../db/database.ts';
import type { SessionSummary } from '../users/sessions-repo.ts';
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
    async totpState(id: string) {
      return db.selectFrom('operators').select(['email', 'totp_secret_sealed', 'totp_enabled_at']).where('id', '=', id).executeTakeFirstOrThrow();
    },
    async setTotpSecret(id: string, sealed: string, now: Date) {
      await db.updateTable('operators').set({ totp_secret_sealed: sealed, updated_at: now }).where('id', '=', id).where('totp_enabled_at', 'is', null).execute();
    },
    async enableTotp(id: string, now: Date, step: number) {
      const result = await db.updateTable('operators').set({ totp_enabled_at: now, totp_last_step: step, updated_at: now }).where('id', '=', id).where('totp_enabled_at', 'is', null).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    /** Spends a TOTP step: stored only if newer than the last one, so a replayed or older code changes nothing and answers false. */
    async acceptTotpStep(trx: Db, id: string, step: number) {
      const result = await trx
        .updateTable('operators')
        .set({ totp_last_step: step })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

/** Operators' sessions: the same rules as users' (users/sessions.ts), their own table. */
export function createOperatorSessionsRepo(db: Db) {
  return {
    async insert(session: { id: string; personId: string; tokenHash: string; ip: string; userAgent: string | null; now: Date; expiresAt: Date }, trx: Db = db) {
      await trx
        .insertInto('operator_sessions')
        .values({ id: session.id, operator_id: session.personId, token_hash: session.tokenHash, ip: session.ip, user_agent: session.userAgent, created_at: session.now, last_seen_at: session.now, expires_at: session.expiresAt })
        .execute();
    },
    /** The unrevoked session with this token hash, if its operator is not disabled. */
    async findActive(tokenHash: string): Promise<ActiveOperatorSession | undefined> {
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
    },
    async touch(id: string, now: Date) {
      await db.updateTable('operator_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
    },
    async listFor(operatorId: string, now: Date): Promise<SessionSummary[]> {
      const rows = await db
        .selectFrom('operator_sessions')
        .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'ip', 'user_agent'])
        .where('operator_id', '=', operatorId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((r) => ({ id: r.id, createdAt: r.created_at.toISOString(), lastSeenAt: r.last_seen_at.toISOString(), expiresAt: r.expires_at.toISOString(), ip: r.ip, userAgent: r.user_agent }));
    },
    async revoke(operatorId: string, sessionId: string, now: Date): Promise<boolean> {
      const result = await db.updateTable('operator_sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('operator_id', '=', operatorId).where('revoked_at', 'is', null).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    async revokeAll(trx: Db, operatorId: string, now: Date) {
      await trx.updateTable('operator_sessions').set({ revoked_at: now }).where('operator_id', '=', operatorId).where('revoked_at', 'is', null).execute();
    },
  };
}
