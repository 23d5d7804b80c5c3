/**
 * Who an audited action is attributed to, by the channel it came through.
 */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from './record.ts';

/** An operator signed in (`operator:<id>`), or the admin token (`admin-api@<ip>`), on `/api/v1/admin`. */
export const adminActor = (request: FastifyRequest): AuditActor & { operatorId?: string } => {
  const auth = request.operatorAuth;
  if (auth?.method === 'session') return { actor: `operator:${auth.operatorId}`, requestId: request.id, operatorId: auth.operatorId };
  return { actor: `admin-api@${request.ip}`, requestId: request.id };
};
