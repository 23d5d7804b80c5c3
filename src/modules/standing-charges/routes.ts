/** Standing PIX charges over HTTP; the rules are in service.ts and payments.ts. */
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { CreateStandingChargeBody, StandingChargeList, StandingChargeParams, StandingChargeSchema } from './schemas.ts';
import type { StandingChargesService } from './service.ts';

const tags = ['Receivers'];

export function registerStandingChargeRoutes(app: App, charges: StandingChargesService): void {
  app.post(
    '/receivers/:id/standing-charges',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a standing PIX charge for a receiver',
        description:
          "A static BR Code on the platform's PIX key carrying this charge's own txid (25 letters and digits), with a fixed amount or an open one; bound to the receiver's wallet as it is now. " +
          'The receiver must be KYC APPROVED and ACTIVE (422 KYC_NOT_APPROVED, RECEIVER_NOT_ACTIVE) and have a wallet address (422 NO_RECEIVER_WALLET). ' +
          "Every PIX paid to the code becomes a PAYIN priced at the rate of the moment the PSP reports it, at the merchant's tier: webhook order.created (sourceKind STANDING_PIX_CHARGE, sourceId this charge), then the PAYIN's usual events. " +
          "A PIX the receiver's rules refuse (another amount than the fixed one, outside the order bounds, over the daily limits, the receiver not APPROVED or ACTIVE, at night without night transactions, a payer the merchant's payer policy refuses, or a disabled charge) is returned to the payer: its order goes REFUNDING then REFUNDED, with its failureReason.",
        params: IdParams,
        body: CreateStandingChargeBody,
        response: { 201: StandingChargeSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(await charges.create(merchantIdOf(request), request.params.id, request.body)),
  );

  app.get(
    '/receivers/:id/standing-charges',
    {
      schema: { tags, summary: "A receiver's standing PIX charges, newest first", params: IdParams, response: { 200: StandingChargeList, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } },
    },
    async (request) => charges.list(merchantIdOf(request), request.params.id),
  );

  app.get(
    '/receivers/:id/standing-charges/:chargeId',
    {
      schema: { tags, summary: 'One standing PIX charge', params: StandingChargeParams, response: { 200: StandingChargeSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } },
    },
    async (request) => charges.get(merchantIdOf(request), request.params.id, request.params.chargeId),
  );

  app.post(
    '/receivers/:id/standing-charges/:chargeId/disable',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Disable a standing PIX charge',
        description:
          'For good: the code cannot be withdrawn from the payers who hold it, so a PIX still paid to it is returned (its order ends REFUNDED, failureReason naming the disabled charge). Disabling a disabled charge answers it unchanged.',
        params: StandingChargeParams,
        response: { 200: StandingChargeSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request) => charges.disable(merchantIdOf(request), request.params.id, request.params.chargeId),
  );
}
