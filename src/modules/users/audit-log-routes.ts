/**
 * GET /audit-log: the merchant's own audit entries, for the dashboard's Team page (issue 28). Here,
 * not in audit/, because who may read it is the role table's call (audit depends on no module).
 * A person needs `users.manage` (OWNER, ADMIN: those who make the changes it records); an API key
 * with full access or the `read` scope may read it too (the key is the merchant's own).
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { type AuditReadDeps, listAudit } from '../audit/log.ts';
import { AuditLogPageSchema, AuditLogQuery } from '../audit/schemas.ts';
import { can } from './roles.ts';

function mayRead(request: FastifyRequest): void {
  const user = request.merchantAuth?.user;
  if (user && !can(user.role, 'users.manage')) throw new AppError('FORBIDDEN', `A ${user.role} cannot read the audit log (needs users.manage)`, { reason: 'ROLE_NOT_ALLOWED', permission: 'users.manage' });
}

export function registerAuditLogRoutes(app: App, reads: AuditReadDeps): void {
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
          200: AuditLogPageSchema,
          ...errorResponses(...AUTHENTICATED_ERRORS, 400),
        },
      },
    },
    async (request) => {
      mayRead(request);
      return listAudit(reads, { ...request.query, merchantId: merchantIdOf(request) });
    },
  );
}
