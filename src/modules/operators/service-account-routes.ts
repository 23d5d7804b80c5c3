/**
 * Service accounts on the back-office API (operators/service-accounts.ts): an ADMIN operator,
 * signed in, creates, lists and revokes them; the admin token and service accounts cannot
 * (a credential never makes another). A new one is PENDING until another operator approves
 * SERVICE_ACCOUNT_ACTIVATE (approvals/service-account-actions.ts).
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
    { schema: { tags, summary: 'Service accounts (automation credentials), oldest first, pending and revoked ones included', response: { 200: Type.Array(ServiceAccountSchema), ...errorResponses(...AUTHENTICATED_ERRORS) } } },
    async () => accounts.list(),
  );

  app.post(
    '/admin/service-accounts',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a service account for automation: a name, a role (never ADMIN) and a bearer token shown once; PENDING until another operator approves it',
        description:
          'The account is created PENDING: its token (`Authorization: Bearer svc_…`), shown this once to its creator alone, is refused with 403 FORBIDDEN (details.reason SERVICE_ACCOUNT_PENDING) until another operator with operators.manage approves a SERVICE_ACCOUNT_ACTIVATE proposal for it (POST /admin/approvals {action: SERVICE_ACCOUNT_ACTIVATE, targetId: <id>, reason}); the creator can propose but never approve it (403 OWN_PROPOSAL or OWN_SERVICE_ACCOUNT). Once ACTIVE it acts as an operator of that role would, under the account\'s name in the audit log (`service-account:<id>`); it cannot propose or approve four-eyes actions nor manage operators. Needs a signed-in operator with operators.manage (ADMIN): the admin token and service accounts are 403 SESSION_REQUIRED. 409 CONFLICT for a name in use.',
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
        summary: 'Revoke a service account, pending or active: its token is refused from the next request',
        description: 'One ADMIN operator alone, at once (a leaked token is an emergency; taking power away waits for nobody). Revoking a revoked account answers it again; a pending SERVICE_ACCOUNT_ACTIVATE proposal for it can then only be rejected. Audited.',
        params: IdParams,
        response: { 200: ServiceAccountSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 404) },
      },
    },
    async (request) => accounts.revoke(request.params.id, operatorOnly(request)),
  );
}
