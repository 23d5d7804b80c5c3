/**
 * GET /audit-log: the merchant's own audit entries, for the dashboard's Team page (issue 28). Here,
 * not in audit/, because who may read it is the role table's call (audit depends on no module).
 * A person needs `users.manage` (OWNER, ADMIN: those who make the changes it records); an API key
 * with full access or the `read` scope may read it too (the key is the merchant's own).
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../../http/pagination.ts';
import { AUTHENTICATED_ERRORS, Timestamp, Uuid, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { listMerchantAudit } from '../audit/merchant-log.ts';
import { can } from './roles.ts';

const AuditEntrySchema = Type.Object(
  {
    id: Uuid(),
    actor: Type.String({ description: '`user:<id>` for a person, `admin-api` or `cli` for an operator, `system` for the platform' }),
    action: Type.String({ description: 'e.g. `user.invite`, `user.withdraw_invitation`, `user.accept_invitation`, `user.create`, `user.set_role`, `user.remove`, `credential.issue`, `credential.revoke`' }),
    targetType: Type.String({ description: '`user`, `invitation` or `credential`' }),
    targetId: Type.Union([Type.String(), Type.Null()]),
    details: Type.Record(Type.String(), Type.Unknown(), { description: 'What changed: `before` and `after` where there is a state (never a secret)' }),
    requestId: Type.Union([Type.String(), Type.Null()], { description: 'The request that made the change' }),
    createdAt: Timestamp(),
  },
  { title: 'AuditEntry' },
);

const AuditLogQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `Page size, at most ${MAX_PAGE_SIZE}` }),
    cursor: Type.Optional(Uuid('The `nextCursor` of the previous page')),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this action' })),
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this actor, e.g. `user:<id>`' })),
    from: Type.Optional(Timestamp('Entries at or after this time')),
    to: Type.Optional(Timestamp('Entries before this time')),
  },
  { additionalProperties: false },
);

function mayRead(request: FastifyRequest): void {
  const user = request.merchantAuth?.user;
  if (user && !can(user.role, 'users.manage')) throw new AppError('FORBIDDEN', `A ${user.role} cannot read the audit log (needs users.manage)`, { reason: 'ROLE_NOT_ALLOWED', permission: 'users.manage' });
}

export function registerAuditLogRoutes(app: App, db: Db): void {
  app.get(
    '/audit-log',
    {
      schema: {
        tags: ['People'],
        summary: "The merchant's audit log: team, invitation and API-key changes, newest first",
        description:
          'Cursor-paged: pass `nextCursor` as `cursor` for the next page (null on the last). Filters: `action`, `actor`, and a `from`/`to` time range. A person needs `users.manage` (OWNER, ADMIN; others 403 ROLE_NOT_ALLOWED); an API key needs full access or the `read` scope.',
        querystring: AuditLogQuery,
        response: {
          200: Type.Object({ data: Type.Array(AuditEntrySchema), nextCursor: Type.Union([Uuid(), Type.Null()]) }, { title: 'AuditLogPage' }),
          ...errorResponses(...AUTHENTICATED_ERRORS, 400),
        },
      },
    },
    async (request) => {
      mayRead(request);
      return listMerchantAudit(db, merchantIdOf(request), request.query);
    },
  );
}
