/** Standing deposit addresses over HTTP; the rules are in service.ts. */
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { CreateStandingAddressBody, StandingAddressList, StandingAddressParams, StandingAddressSchema } from './schemas.ts';
import type { StandingAddressesService } from './service.ts';

const tags = ['Receivers'];

export function registerStandingAddressRoutes(app: App, addresses: StandingAddressesService): void {
  app.post(
    '/receivers/:id/standing-addresses',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a standing deposit address for a receiver',
        description:
          "A permanent Solana address of the receiver's, new (never another's), bound to a PIX key: the receiver's document by default, or pixKey with pixKeyType (under the merchant's RECEIVER_ONLY destination policy a key the receiver holds: 422 otherwise). " +
          'The receiver must be KYC APPROVED and ACTIVE (422 KYC_NOT_APPROVED, RECEIVER_NOT_ACTIVE). ' +
          'Decision 0046 plans each deposit of the token to become a PAYOUT at the rate of the moment it is credited (order.created with sourceKind STANDING_DEPOSIT_ADDRESS); a deposit below the minimum or over a limit held for review.',
        params: IdParams,
        body: CreateStandingAddressBody,
        response: { 201: StandingAddressSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 422, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await addresses.create(merchantIdOf(request), request.params.id, request.body)),
  );

  app.get(
    '/receivers/:id/standing-addresses',
    {
      schema: { tags, summary: "A receiver's standing deposit addresses, newest first", params: IdParams, response: { 200: StandingAddressList, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } },
    },
    async (request) => addresses.list(merchantIdOf(request), request.params.id),
  );

  app.get(
    '/receivers/:id/standing-addresses/:addressId',
    {
      schema: { tags, summary: 'One standing deposit address', params: StandingAddressParams, response: { 200: StandingAddressSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } },
    },
    async (request) => addresses.get(merchantIdOf(request), request.params.id, request.params.addressId),
  );

  app.post(
    '/receivers/:id/standing-addresses/:addressId/disable',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Disable a standing deposit address',
        description: 'For good: senders may still hold the address, so a deposit still sent to it makes no order (recorded for an operator to return). Disabling a disabled address answers it unchanged.',
        params: StandingAddressParams,
        response: { 200: StandingAddressSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request) => addresses.disable(merchantIdOf(request), request.params.id, request.params.addressId),
  );
}
