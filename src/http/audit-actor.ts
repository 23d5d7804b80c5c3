/**
 * Who an audited action is attributed to, by the channel it came through. It reads the request's
 * authentication (http/auth.ts), so it sits with the HTTP plumbing; the entry itself is written
 * by platform/audit/record.ts, which knows no HTTP.
 */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../platform/audit/record.ts';

/** An operator signed in (`operator:<id>`), a service account (`service-account:<id>`), or the admin token (`admin-api@<ip>`), on `/api/v1/admin`. */
export const adminActor = (request: FastifyRequest): AuditActor & { operatorId?: string } => {
  const auth = request.operatorAuth;
  if (auth?.method === 'session') return { actor: `operator:${auth.operatorId}`, requestId: request.id, operatorId: auth.operatorId };
  // Automation under its own name (operators/service-accounts.ts), as accountable as a person.
  if (auth?.method === 'service-account') return { actor: `service-account:${auth.serviceAccountId}`, requestId: request.id };
  return { actor: `admin-api@${request.ip}`, requestId: request.id };
};

/** A merchant's own act: the signed-in person (`user:<id>`), or the API key (`merchant:<id>:credential:<id>`). */
export const merchantActor = (request: FastifyRequest): AuditActor => {
  const auth = request.merchantAuth!;
  const actor = auth.method === 'session' && auth.user ? `user:${auth.user.id}` : `merchant:${auth.merchantId}:credential:${auth.credentialId}`;
  return { actor, requestId: request.id };
};
