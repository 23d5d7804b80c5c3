/**
 * Service accounts (docs/decisions/0024-operators-made-by-two.md): automation's own credentials
 * instead of the admin token. Each has a name, a role that is never ADMIN (so it manages no
 * operators) and a bearer token `svc_…` shown once to the ADMIN operator who creates it; only
 * the token's SHA-256 is kept (32 random bytes need no slow hash). It acts by its role like an
 * operator, is named in the audit log (`service-account:<id>`), has no four-eyes vote (it neither
 * proposes nor approves) and is revoked at once by any ADMIN operator.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditActor, recordAudit } from '../../platform/audit/record.ts';
import type { ServiceAccountsTable } from './tables.ts';

export type ServiceAccountRole = ServiceAccountsTable['role'];
export const SERVICE_ACCOUNT_ROLES = ['OPERATIONS', 'COMPLIANCE', 'FINANCE', 'VIEWER'] as const satisfies readonly ServiceAccountRole[];

export interface ServiceAccount {
  id: string;
  name: string;
  role: ServiceAccountRole;
  createdBy: string;
  createdAt: string;
  revokedAt: string | null;
}

const COLUMNS = ['id', 'name', 'role', 'created_by', 'created_at', 'revoked_at'] as const;
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const toServiceAccount = (row: { id: string; name: string; role: ServiceAccountRole; created_by: string; created_at: Date; revoked_at: Date | null }): ServiceAccount => ({
  id: row.id,
  name: row.name,
  role: row.role,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

export function createServiceAccounts(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /** The live account behind a token; undefined for an unknown or revoked one. */
    async authenticate(token: string): Promise<{ id: string; name: string; role: ServiceAccountRole } | undefined> {
      return db.selectFrom('service_accounts').select(['id', 'name', 'role']).where('token_hash', '=', sha256Hex(token)).where('revoked_at', 'is', null).executeTakeFirst();
    },

    async list(): Promise<ServiceAccount[]> {
      return (await db.selectFrom('service_accounts').select(COLUMNS).orderBy('created_at').orderBy('id').execute()).map(toServiceAccount);
    },

    /** A new account and its token, shown this once. 409 for a name in use. */
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
        await recordAudit(trx, actor, { action: 'service_account.create', targetType: 'service_account', targetId: created.id, details: { before: null, after: { name: created.name, role: created.role } } });
        return created;
      });
      return { serviceAccount, token };
    },

    /** Revokes an account: its token is refused from the next request. Revoking a revoked one answers it again. */
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
