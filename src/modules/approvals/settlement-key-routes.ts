/**
 * Asking for a merchant's settlement PIX key (docs/decisions/0044): one operator's request records
 * the key PENDING and proposes SETTLEMENT_PIX_KEY in one call; another operator approves it
 * (POST /admin/approvals/{id}/approve), never the one who asked.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { adminActor } from '../../http/audit-actor.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { operatorCan } from '../operators/roles.ts';
import type { SettlementPixKeys } from '../settlement-payouts/keys.ts';
import { SettlementPixKeyBody } from '../settlement-payouts/schemas.ts';
import { ApprovalSchema } from './schemas.ts';
import type { ApprovalsService } from './service.ts';

function operatorOf(request: FastifyRequest) {
  const auth = request.operatorAuth;
  if (auth?.method !== 'session') throw new AppError('FORBIDDEN', 'Four-eyes actions need a signed-in operator, not the admin token', { reason: 'SESSION_REQUIRED' });
  if (!operatorCan(auth.role, 'treasury.manage')) throw new AppError('FORBIDDEN', `An operator with role ${auth.role} cannot propose or decide SETTLEMENT_PIX_KEY (needs treasury.manage)`, { reason: 'ROLE_NOT_ALLOWED', permission: 'treasury.manage' });
  return { operatorId: auth.operatorId, role: auth.role, requestId: request.id };
}

export function registerSettlementKeyProposalRoutes(app: App, deps: { approvals: Pick<ApprovalsService, 'propose'>; keys: Pick<SettlementPixKeys, 'request'> }): void {
  app.post(
    '/admin/merchants/:id/settlement-pix-key',
    {
      config: { idempotent: true },
      schema: {
        tags: ['Admin'],
        summary: "Ask for a merchant's settlement PIX key, for another operator to approve",
        description:
          'Records the key PENDING (sealed at rest) and proposes SETTLEMENT_PIX_KEY on it: once another operator with treasury.manage approves, the merchant’s settlements are paid to it, its previous key is SUPERSEDED, and settlements waiting for a key (AWAITING_PIX_KEY) or refused (FAILED) are sent. 400 for an invalid key or document (a CPF or CNPJ key must be the holder’s document), 404 for an unknown merchant. Needs a signed-in operator with treasury.manage (403 SESSION_REQUIRED, ROLE_NOT_ALLOWED). Audited.',
        params: IdParams,
        body: SettlementPixKeyBody,
        response: { 201: ApprovalSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const operator = operatorOf(request);
      const { reason, ...key } = request.body;
      const keyId = await deps.keys.request(request.params.id, key, { ...adminActor(request), operatorId: operator.operatorId });
      return reply.code(201).send(await deps.approvals.propose(operator, { action: 'SETTLEMENT_PIX_KEY', targetId: keyId, reason }));
    },
  );
}
