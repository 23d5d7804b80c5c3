/**
 * Scopes enforced on the merchant API for restricted API keys and their bearer tokens (a key
 * without scopes, and a session, pass: sessions have the role table, users/guard.ts). Runs on
 * `onRequest`, after authentication and before the body is read.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { scopeFor } from './scopes.ts';

export async function enforceKeyScope(request: FastifyRequest): Promise<void> {
  const scopes = request.merchantAuth?.scopes;
  if (scopes === undefined) return;
  const scope = scopeFor(request.method, request.routeOptions.url ?? '');
  if (scope !== undefined && scopes.includes(scope)) return;
  throw new AppError('FORBIDDEN', scope ? `This API key lacks the scope ${scope}` : 'No API-key scope covers this route: it needs a key with full access or a session', {
    reason: 'SCOPE_REQUIRED',
    ...(scope ? { scope } : {}),
  });
}
