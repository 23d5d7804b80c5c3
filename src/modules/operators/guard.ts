/**
 * The operator role table enforced on every back-office route, on `onRequest` after
 * authentication and before the body is read. An operator without TOTP may only enrol it.
 * The admin token bootstraps, then steps aside (docs/decisions/0024-operators-made-by-two.md):
 * it is refused on every four-eyes route once any operator exists (two people can then be made),
 * and on operator management and bulk exports of personal data once two operators have enrolled TOTP. A service account acts by
 * its role like an operator, but never on a four-eyes route nor on operators (no ADMIN role).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import type { Db } from '../../db/database.ts';
import type { BootstrapState } from './bootstrap.ts';
import { ENROLMENT_ROUTES, operatorCan, requiredPermission } from './roles.ts';

const FOUR_EYES_REQUIRED = () =>
  new AppError('FORBIDDEN', 'This action needs two operators: propose it (POST /api/v1/admin/approvals) for another operator to approve', { reason: 'FOUR_EYES_REQUIRED' });

export function enforceOperatorRole(bootstrap: Pick<BootstrapState, 'isOver' | 'anyOperator'>) {
  return async (request: FastifyRequest): Promise<void> => {
    const auth = request.operatorAuth;
    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    const permission = requiredPermission(request.method, request.routeOptions.url ?? '');
    if (auth?.method === 'admin-token') {
      if (permission === 'four-eyes' && (await bootstrap.anyOperator())) throw FOUR_EYES_REQUIRED();
      if (permission === 'operators.manage' && (await bootstrap.isOver())) {
        throw new AppError('FORBIDDEN', 'The admin token no longer manages operators: two operators have enrolled TOTP, so creating or raising one takes two of them (POST /api/v1/admin/approvals)', { reason: 'ADMIN_TOKEN_BOOTSTRAP_OVER' });
      }
      // A bulk export of personal data is a compliance act by someone with a name: a COMPLIANCE or
      // ADMIN operator, or a COMPLIANCE service account that a second operator approved.
      if (permission === 'reports.export' && (await bootstrap.isOver())) {
        throw new AppError('FORBIDDEN', 'The admin token no longer exports personal data: two operators have enrolled TOTP, so an export is made by a COMPLIANCE or ADMIN operator, or a COMPLIANCE service account', { reason: 'ADMIN_TOKEN_BOOTSTRAP_OVER' });
      }
      return;
    }
    if (auth?.method === 'session' && !auth.totpEnabled && !ENROLMENT_ROUTES.has(route)) {
      throw new AppError('FORBIDDEN', 'An operator must enrol TOTP first (POST /api/v1/admin/operators/me/totp)', { reason: 'TOTP_ENROLMENT_REQUIRED' });
    }
    if (auth?.method !== 'session' && auth?.method !== 'service-account') return;
    if (permission === 'self') return;
    if (permission === 'four-eyes') throw FOUR_EYES_REQUIRED();
    if (permission === undefined || !operatorCan(auth.role, permission)) {
      throw new AppError('FORBIDDEN', `An operator with role ${auth.role} cannot do this${permission ? ` (needs ${permission})` : ''}`, { reason: 'ROLE_NOT_ALLOWED', ...(permission ? { permission } : {}) });
    }
  };
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
