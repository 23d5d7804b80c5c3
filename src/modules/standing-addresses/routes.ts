/** Standing deposit addresses over HTTP; the rules are in service.ts. */
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { SandboxChain } from '../../adapters/chain/sandbox.ts';
import { decimal } from '../../lib/money.ts';
import type { StandingDeposits } from './deposits.ts';
import { CreateStandingAddressBody, SandboxStandingDepositBody, StandingAddressList, StandingAddressParams, StandingAddressSchema, StandingDepositList } from './schemas.ts';
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
          'Each deposit of the token, credited once by its signature, becomes a PAYOUT at the rate of the moment (webhook order.created with sourceKind STANDING_DEPOSIT_ADDRESS, sourceId this address, then the PAYOUT\'s usual events) paid to this PIX key; one below the minimum order or over a bound or the receiver\'s day limits is held for review (GET .../deposits), never split.',
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

export function registerStandingDepositRoutes(app: App, addresses: StandingAddressesService): void {
  app.get(
    '/receivers/:id/standing-addresses/:addressId/deposits',
    {
      schema: {
        tags,
        summary: "A standing deposit address's deposits, newest first",
        description: 'Each credited deposit once (by signature): ORDERED with the PAYOUT it made, PENDING until made, or held for review (HELD_BELOW_MINIMUM, HELD_OVER_LIMIT) with the reason; a held deposit stays at the address.',
        params: StandingAddressParams,
        response: { 200: StandingDepositList, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) },
      },
    },
    async (request) => addresses.deposits(merchantIdOf(request), request.params.id, request.params.addressId),
  );
}

/** The sandbox's deposit to a standing address (CHAIN_PROVIDER=sandbox): handled at once as the watcher would, its PAYOUT then made. */
export function registerSandboxStandingAddressRoutes(app: App, addresses: StandingAddressesService, deposits: StandingDeposits, chain: Pick<SandboxChain, 'simulateDeposit'>): void {
  app.post(
    '/sandbox/receivers/:id/standing-addresses/:addressId/deposit',
    {
      config: { idempotent: true },
      schema: {
        tags: ['Sandbox'],
        summary: 'Make a deposit arrive at a standing address',
        description:
          "Handled at once, as the deposit watcher would: recorded once by its signature, then made a PAYOUT at the rate of the moment (order.created, sourceKind STANDING_DEPOSIT_ADDRESS; DEPOSIT_RECEIVED, then paid by the worker's PIX steps), or held for review. A disabled address's deposit makes nothing. Answers the address's deposits.",
        params: StandingAddressParams,
        body: SandboxStandingDepositBody,
        response: { 200: StandingDepositList, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404) },
      },
    },
    async (request) => {
      const merchantId = merchantIdOf(request);
      const address = await addresses.findOwnedRow(merchantId, request.params.id, request.params.addressId);
      const deposit = await chain.simulateDeposit({ depositAddress: address.deposit_address, amount: decimal(request.body.amountCrypto).toString() });
      await deposits.handleDeposit(deposit);
      await deposits.runPass({ addressId: address.id });
      return addresses.deposits(merchantId, request.params.id, request.params.addressId);
    },
  );
}
