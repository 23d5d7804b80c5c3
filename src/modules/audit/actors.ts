/**
 * Who an audited action is attributed to, by the channel it came through.
 */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from './record.ts';

/** An operator calling `/api/v1/admin` with the admin token. */
export const adminActor = (request: FastifyRequest): AuditActor => ({ actor: `admin-api@${request.ip}`, requestId: request.id });
