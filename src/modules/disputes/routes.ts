/**
 * Merchant routes of MED claims (extensions of the spec): the claims on its orders' PIX, and its
 * defense before the deadline.
 */
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { DefenseBody, DisputeListQuery, DisputePage, DisputeSchema, toDispute } from './schemas.ts';
import type { DisputesService } from './service.ts';

const tags = ['Disputes'];

const ABOUT =
  "A MED 2.0 fraud claim (infraction) the payer's PSP opened on the PIX of one of your PAYINs. While it is open, an order whose tokens had not left is held; " +
  'if the claim is ACCEPTED the PIX goes back to the payer with natureza MED_FRAUDE: through the order (it ends REFUNDED), or, when the tokens had already been sent, ' +
  'from the platform, charged back to your fee balance (a negative balance is netted against your next fees). Events: order.disputed, dispute.updated, dispute.resolved.';

export function registerDisputeRoutes(app: App, disputes: DisputesService): void {
  app.get(
    '/disputes',
    {
      schema: { tags, summary: 'MED claims on your orders, newest first', description: ABOUT, querystring: DisputeListQuery, response: { 200: DisputePage, ...errorResponses(...AUTHENTICATED_ERRORS, 400) } },
    },
    async (request) => {
      const { page, limit, status, orderId } = request.query;
      const { rows, total } = await disputes.list({ merchantId: merchantIdOf(request), ...(status ? { status } : {}), ...(orderId ? { orderId } : {}) }, { page, pageSize: limit });
      return { data: rows.map(toDispute), total, page, limit };
    },
  );

  app.get(
    '/disputes/:id',
    { schema: { tags, summary: 'One MED claim', description: ABOUT, params: IdParams, response: { 200: DisputeSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } } },
    async (request) => toDispute(await disputes.get(request.params.id, merchantIdOf(request))),
  );

  app.post(
    '/disputes/:id/defense',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Defend a MED claim before its deadline',
        description:
          'Sends your justification and evidence to the PSP (which decides the claim) and moves the claim to DEFENDED. Only an OPEN claim before its `defenseDeadline`: ' +
          'after it, 422 DEFENSE_DEADLINE_PASSED; a claim already defended or decided, 409 DISPUTE_NOT_OPEN; the PSP unreachable, 503 PROVIDER_UNAVAILABLE (retry with the same Idempotency-Key).',
        params: IdParams,
        body: DefenseBody,
        response: { 200: DisputeSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409, 422, 503) },
      },
    },
    async (request) => {
      const { justification, evidence } = request.body;
      return toDispute(await disputes.submitDefense(merchantIdOf(request), request.params.id, { justification, evidence: evidence ?? [] }));
    },
  );
}
