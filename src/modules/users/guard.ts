/**
 * The role table enforced on the merchant API for people signed in with a session (API keys and
 * bearer tokens are the merchant's own and pass). Runs on `onRequest`, after authentication and
 * before the body is read. An OWNER or ADMIN without TOTP may only enrol it (and see or end its
 * session); the user and session routes check their own finer rules in the service.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { can, permissionFor, TOTP_REQUIRED_ROLES } from './roles.ts';

const SELF_CHECKED = /^\/api\/v1\/(users|auth\/sessions)(\/|$)/;
const ENROLMENT_ROUTES = new Set(['/api/v1/users/me/totp', '/api/v1/users/me/totp/confirm', '/api/v1/auth/sessions/current']);

export async function enforceSessionRole(request: FastifyRequest): Promise<void> {
  const user = request.merchantAuth?.user;
  if (!user) return;
  const route = request.routeOptions.url ?? '';
  if (TOTP_REQUIRED_ROLES.includes(user.role) && !user.totpEnabled && !ENROLMENT_ROUTES.has(route)) {
    throw new AppError('FORBIDDEN', `An ${user.role} must enrol TOTP first (POST /api/v1/users/me/totp)`, { reason: 'TOTP_ENROLMENT_REQUIRED' });
  }
  if (SELF_CHECKED.test(route)) return;
  const permission = permissionFor(request.method, route);
  if (!can(user.role, permission)) throw new AppError('FORBIDDEN', `A ${user.role} cannot do this (needs ${permission})`, { reason: 'ROLE_NOT_ALLOWED', permission });
}
