/**
 * Service accounts (docs/decisions/0024-operators-made-by-two.md, 0031): automation's own
 * credentials instead of the admin token. Each has a name, a role that is never ADMIN (so it
 * manages no operators) and a bearer token `svc_…` shown once to the ADMIN operator who creates
 * it; only the token's SHA-256 is kept (32 random bytes need no slow hash). It is created PENDING:
 * the token is refused (403 SERVICE_ACCOUNT_PENDING) until another operator approves
 * SERVICE_ACCOUNT_ACTIVATE (approvals/service-account-actions.ts), so no one ADMIN leaves behind a
 * credential nobody else agreed to. It then acts by its role like an operator, is named in the
 * audit log (`service-account:<id>`), has no four-eyes vote (it neither proposes nor approves) and
 * is revoked at once by any ADMIN operator.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db, Trx } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import type { ServiceAccountsTable } from './tables.ts';

export type ServiceAccountRole = ServiceAccountsTable['role'];
export const SERVICE_ACCOUNT_ROLES = ['OPERATIONS', 'COMPLIANCE', 'FINANCE', 'VIEWER'] as const satisfies readonly ServiceAccountRole[];
export const SERVICE_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'REVOKED'] as const;
export type ServiceAccountStatus = (typeof SERVICE_ACCOUNT_STATUSES)[number];

export interface ServiceAccount {
  id: string;
  name: string;
  role: ServiceAccountRole;
  status: ServiceAccountStatus;
  createdBy: string;
  createdAt: string;
  activatedAt: string | null;
  approvalId: string | null;
  revokedAt: string | null;
}

/** Who a token belongs to: `pending` until a second operator approved it. */
export interface ServiceAccountIdentity {
  id: string;
  name: string;
  role: ServiceAccountRole;
  pending: boolean;
}

const COLUMNS = ['id', 'name', 'role', 'created_by', 'created_at', 'activated_at', 'approval_id', 'revoked_at'] as const;
type Row = { id: string; name: string; role: ServiceAccountRole; created_by: string; created_at: Date; activated_at: Date | null; approval_id: string | null; revoked_at: Date | null };
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const statusOf = (row: Row): ServiceAccountStatus => (row.revoked_at ? 'REVOKED' : row.activated_at ? 'ACTIVE' : 'PENDING');
const toServiceAccount = (row: Row): ServiceAccount => ({
  id: row.id,
  name: row.name,
  role: row.role,
  status: statusOf(row),
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  activatedAt: row.activated_at?.toISOString() ?? null,
  approvalId: row.approval_id,
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

export function createServiceAccounts(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /** The unrevoked account behind a token, pending or active; undefined for an unknown or revoked one. */
    async authenticate(token: string): Promise<ServiceAccountIdentity | undefined> {
      const row = await db.selectFrom('service_accounts').select(['id', 'name', 'role', 'activated_at']).where('token_hash', '=', sha256Hex(token)).where('revoked_at', 'is', null).executeTakeFirst();
      return row && { id: row.id, name: row.name, role: row.role, pending: row.activated_at === null };
    },

    async list(): Promise<ServiceAccount[]> {
      return (await db.selectFrom('service_accounts').select(COLUMNS).orderBy('created_at').orderBy('id').execute()).map(toServiceAccount);
    },

    async get(id: string): Promise<ServiceAccount | undefined> {
      const row = await db.selectFrom('service_accounts').select(COLUMNS).where('id', '=', id).executeTakeFirst();
      return row && toServiceAccount(row);
    },

    /** A new PENDING account and its token, shown this once. 409 for a name in use. */
    async create(input: { name: string; role: ServiceAccountRole }, actor: AuditActor): Promise<{ serviceAccount: ServiceAccount; token: string }> {
      const token = `svc_${randomBytes(32).toString('base64url')}`;
      const serviceAccount = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('service_accounts')
          .values({ id: newId(), name: input.name, role: input.role, token_hash: sha256Hex(token), created_by: actor.actor, created_at: clock.now() })
          .onConflict((oc) => oc.column('name').doNothing())
          .returning(COLUMNS)
          .executeTakeFirst();
        if (!row) throw new AppError('CONFLICT', 'A service account with this name already exists');
        const created = toServiceAccount(row);
        await recordAudit(trx, actor, { action: 'service_account.create', targetType: 'service_account', targetId: created.id, details: { before: null, after: { name: created.name, role: created.role, status: created.status } } });
        return created;
      });
      return { serviceAccount, token };
    },

    /**
     * An approved SERVICE_ACCOUNT_ACTIVATE, in the approval's transaction, under the account's
     * lock: 404 unknown, 409 revoked or already active (the proposal then stays pending, to
     * reject), 403 OWN_SERVICE_ACCOUNT when the approver created it (a second person must agree).
     */
    async activate(trx: Trx, id: string, by: AuditActor & { approvalId: string }): Promise<ServiceAccount> {
      const before = await trx.selectFrom('service_accounts').select(COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw notFound('Service account');
      if (statusOf(before) !== 'PENDING') throw new AppError('CONFLICT', `The service account is ${statusOf(before)}, not PENDING`, { reason: 'ACTION_NOT_ALLOWED' });
      if (before.created_by === by.actor) throw new AppError('FORBIDDEN', 'The operator who created a service account cannot approve it: another operator must', { reason: 'OWN_SERVICE_ACCOUNT' });
      const row = await trx.updateTable('service_accounts').set({ activated_at: clock.now(), approval_id: by.approvalId }).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow();
      await recordAudit(trx, by, { action: 'service_account.activate', targetType: 'service_account', targetId: id, details: { before: { status: 'PENDING' }, after: { status: 'ACTIVE' }, approvalId: by.approvalId, createdBy: before.created_by } });
      return toServiceAccount(row);
    },

    /** Revokes an account, pending or active: its token is refused from the next request. Revoking a revoked one answers it again. */
    async revoke(id: string, actor: AuditActor): Promise<ServiceAccount> {
      return db.transaction().execute(async (trx) => {
        const row = await trx.updateTable('service_accounts').set({ revoked_at: clock.now() }).where('id', '=', id).where('revoked_at', 'is', null).returning(COLUMNS).executeTakeFirst();
        if (row) {
          await recordAudit(trx, actor, { action: 'service_account.revoke', targetType: 'service_account', targetId: id, details: { before: { revoked: false }, after: { revoked: true } } });
          return toServiceAccount(row);
        }
        const existing = await trx.selectFrom('service_accounts').select(COLUMNS).where('id', '=', id).executeTakeFirst();
        if (!existing) throw notFound('Service account');
        return toServiceAccount(existing);
      });
    },
  };
}

export type ServiceAccounts = ReturnType<typeof createServiceAccounts>;
