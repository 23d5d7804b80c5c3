/**
 * Four-eyes approvals and the operators' actions on stuck orders, under /admin
 * (docs/architecture/back-office.md). Thin: the rules are in service.ts, actions.ts and
 * orders/operator/operator-actions-service.ts.
 */
import type { FastifyRequest } from 'fastify';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { AppError } from '../../errors.ts';
import { adminActor } from '../../http/audit-actor.ts';
import { AdminOrderSchema } from '../orders/operator/admin-schemas.ts';
import type { OrderOperatorActions } from '../orders/operator/operator-actions-service.ts';
import { ApprovalPageSchema, ApprovalSchema, ApprovalsQuery, ApproveBody, MarkFailedBody, ProposeBody, RejectBody } from './schemas.ts';
import type { ApprovalActor, ApprovalsService } from './service.ts';

const tags = ['Admin'];
const FOUR_EYES = 'Two operators: the proposer cannot approve or reject their own proposal (403 FORBIDDEN, details.reason OWN_PROPOSAL); the admin token and service accounts can do neither (403 SESSION_REQUIRED).';

/** Four-eyes needs two people: the admin token is nobody. */
function operatorOf(request: FastifyRequest): ApprovalActor {
  const auth = request.operatorAuth;
  if (auth?.method !== 'session') throw new AppError('FORBIDDEN', 'Four-eyes actions need a signed-in operator, not the admin token', { reason: 'SESSION_REQUIRED' });
  return { operatorId: auth.operatorId, role: auth.role, requestId: request.id };
}

export function registerApprovalRoutes(app: App, approvals: ApprovalsService, orders: OrderOperatorActions): void {
  app.get(
    '/admin/approvals',
    { schema: { tags, summary: 'Four-eyes proposals, newest first', querystring: ApprovalsQuery, response: { 200: ApprovalPageSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400) } } },
    async (request) => approvals.list(request.query),
  );

  app.get(
    '/admin/approvals/:id',
    { schema: { tags, summary: 'One four-eyes proposal', params: IdParams, response: { 200: ApprovalSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } } },
    async (request) => approvals.get(request.params.id),
  );

  app.post(
    '/admin/approvals',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Propose an action that moves money or changes risk, for another operator to approve',
        description: `Checked now: 404 for an unknown target, 409 CONFLICT when the action does not apply to it now (details.reason ACTION_NOT_ALLOWED) or one is already pending for it (PROPOSAL_PENDING), 400 for bad params. The proposer needs the action's permission (ORDER_REFUND and PAYOUT_RETRY orders.operate, MERCHANT_ENABLE merchants.manage, PLATFORM_FEE_CHANGE fees.manage, TREASURY_WITHDRAWAL treasury.manage, OPERATOR_CREATE, OPERATOR_ROLE_CHANGE, OPERATOR_ENABLE and SERVICE_ACCOUNT_ACTIVATE operators.manage; the approver of a change to an operator is never that operator, 403 OWN_CHANGE, nor of a service account its creator, 403 OWN_SERVICE_ACCOUNT). ${FOUR_EYES}`,
        body: ProposeBody,
        response: { 201: ApprovalSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await approvals.propose(operatorOf(request), request.body)),
  );

  app.post(
    '/admin/approvals/:id/approve',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Approve a proposal: its action runs now, in the same transaction as the decision',
        description: `The approver needs the action's permission too. 409 CONFLICT when the proposal is no longer pending, or its action no longer applies (then it stays pending, to reject). ${FOUR_EYES}`,
        params: IdParams,
        body: ApproveBody,
        response: { 200: ApprovalSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => approvals.approve(operatorOf(request), request.params.id, request.body?.note),
  );

  app.post(
    '/admin/approvals/:id/reject',
    {
      config: { idempotent: true },
      schema: { tags, summary: 'Reject a proposal, with a reason', description: FOUR_EYES, params: IdParams, body: RejectBody, response: { 200: ApprovalSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) } },
    },
    async (request) => approvals.reject(operatorOf(request), request.params.id, request.body.reason),
  );

  app.post(
    '/admin/orders/:id/retry-step',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Run a stuck order's next worker step now",
        description: 'For an order whose allowedActions holds RETRY_STEP (in transit, with a worker step): its step is due now and its backoff starts again. A worker holding the order keeps it. 409 CONFLICT otherwise (details.allowedActions). Audited.',
        params: IdParams,
        response: { 200: AdminOrderSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404, 409) },
      },
    },
    async (request) => orders.retryStep(request.params.id, adminActor(request)),
  );

  app.post(
    '/admin/orders/:id/mark-failed',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'End a stuck order as FAILED, with a reason',
        description: "For an order whose allowedActions holds MARK_FAILED (a refund or a payout's PIX the provider never settles). Sends order.failed; posts nothing to the ledger: the funds stay in transit, visible in the stuck list (a PAYIN can then be refunded through ORDER_REFUND). 409 CONFLICT otherwise. Audited.",
        params: IdParams,
        body: MarkFailedBody,
        response: { 200: AdminOrderSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => orders.markFailed(request.params.id, request.body.reason, adminActor(request)),
  );
}
