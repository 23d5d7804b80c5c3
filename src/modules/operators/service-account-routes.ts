/**
 * Service accounts on the back-office API (operators/service-accounts.ts): an ADMIN operator,
 * signed in, creates, lists and revokes them; the admin token and service accounts cannot
 * (a credential never makes another).
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { adminActor } from '../../http/audit-actor.ts';
import { CreateServiceAccountBody, CreatedServiceAccountSchema, ServiceAccountSchema } from './schemas.ts';
import type { OperatorsService } from './service.ts';

const tags = ['Admin'];

function operatorOnly(request: FastifyRequest) {
  if (request.operatorAuth?.method !== 'session') throw new AppError('FORBIDDEN', 'Service accounts are managed by a signed-in ADMIN operator', { reason: 'SESSION_REQUIRED' });
  return adminActor(request);
}

export function registerServiceAccountRoutes(app: App, operators: OperatorsService): void {
  const accounts = operators.serviceAccounts;
  app.get(
    '/admin/service-accounts',
    { schema: { tags, summary: 'Service accounts (automation credentials), oldest first, revoked ones included', response: { 200: Type.Array(ServiceAccountSchema), ...errorResponses(...AUTHENTICATED_ERRORS) } } },
    async () => accounts.list(),
  );

  app.post(
    '/admin/service-accounts',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a service account for automation: a name, a role (never ADMIN) and a bearer token shown once',
        description:
          'The token (`Authorization: Bearer svc_…`) acts as an operator of that role would, under the account\'s name in the audit log (`service-account:<id>`); it cannot propose or approve four-eyes actions nor manage operators. Needs a signed-in operator with operators.manage (ADMIN): the admin token and service accounts are 403 SESSION_REQUIRED. 409 CONFLICT for a name in use.',
        body: CreateServiceAccountBody,
        response: { 201: CreatedServiceAccountSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      const actor = operatorOnly(request);
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await accounts.create(request.body, actor));
    },
  );

  app.delete(
    '/admin/service-accounts/:id',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Revoke a service account: its token is refused from the next request',
        description: 'One ADMIN operator alone, at once (a leaked token is an emergency). Revoking a revoked account answers it again. Audited.',
        params: IdParams,
        response: { 200: ServiceAccountSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => accounts.revoke(request.params.id, operatorOnly(request)),
  );
}
