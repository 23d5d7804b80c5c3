/**
 * The operator role table enforced on every back-office route, on `onRequest` after
 * authentication and before the body is read. The admin token passes (bootstrap and automation,
 * audited by `auditAdminTokenUse`). An operator without TOTP may only enrol it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../../db/database.ts';
import { ENROLMENT_ROUTES, operatorCan, requiredPermission } from './roles.ts';

export async function enforceOperatorRole(request: FastifyRequest): Promise<void> {
  const auth = request.operatorAuth;
  if (auth?.method !== 'session') return;
  const route = `${request.method} ${request.routeOptions.url ?? ''}`;
  if (!auth.totpEnabled && !ENROLMENT_ROUTES.has(route)) {
    throw new AppError('FORBIDDEN', 'An operator must enrol TOTP first (POST /api/v1/admin/operators/me/totp)', { reason: 'TOTP_ENROLMENT_REQUIRED' });
  }
  const permission = requiredPermission(request.method, request.routeOptions.url ?? '');
  if (permission === 'self') return;
  if (permission === 'four-eyes') {
    throw new AppError('FORBIDDEN', 'This action needs two operators: propose it (POST /api/v1/admin/approvals) for another operator to approve', { reason: 'FOUR_EYES_REQUIRED' });
  }
  if (permission === undefined || !operatorCan(auth.role, permission)) {
    throw new AppError('FORBIDDEN', `An operator with role ${auth.role} cannot do this${permission ? ` (needs ${permission})` : ''}`, { reason: 'ROLE_NOT_ALLOWED', ...(permission ? { permission } : {}) });
  }
}

/**
 * Every request made with the admin token leaves an audit entry (its writes also leave their
 * own, in their transaction): the token has no name, so when and what it did is all there is.
 * An `onSend` hook: written before the answer leaves, so no caller sees an answer whose use is
 * not on record.
 */
export function auditAdminTokenUse(db: Db) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (request.operatorAuth?.method !== 'admin-token') return payload;
    await db.transaction().execute((trx) =>
      recordAudit(trx, { actor: `admin-api@${request.ip}`, requestId: request.id }, {
        action: 'admin_token.use',
        targetType: 'route',
        targetId: `${request.method} ${request.routeOptions.url ?? request.url}`,
        details: { statusCode: reply.statusCode },
      }),
    );
    return payload;
  };
}
