import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { logWith } from '../../http/request-log.ts';
import type { OrderListing } from './reads/listing.ts';
import { OrderListQuery, OrderPageSchema, OrderSchema, PayinBody, PayoutBody } from './schemas.ts';
import type { OrdersService } from './service.ts';

const RULES_422 =
  'Business rules answer 422: KYC_NOT_APPROVED, RECEIVER_NOT_ACTIVE, NIGHT_TRANSACTIONS_DISABLED (20:00–06:00 America/Sao_Paulo unless the receiver allows it), LIMIT_EXCEEDED (daily BRL total or count, São Paulo calendar day), QUOTE_EXPIRED, QUOTE_INVALID (other type, token, chain, receiver or amount, or already used). An externalId already used is 409 CONFLICT with `details.existingOrderId`. A provider failure is 503 PROVIDER_UNAVAILABLE; no current price (an order without a quote, when the price source is unreachable or its last price is older than the maximum age) is 503 PRICE_UNAVAILABLE, and no order is created.';

/** The merchant's destination policy (set by an operator: PUT /admin/merchants/{id}/destination-policy, read with the others at GET /admin/merchants/{id}/policies). */
const PAYOUT_DESTINATION =
  "Money goes only to the receiver: under the merchant's destination policy RECEIVER_ONLY (the default), pixKey must be the receiver's. A CPF or CNPJ key must be the receiver's own document (such a key never changes holder); an EMAIL, PHONE or EVP key is accepted only when the PIX provider's key lookup confirms that its holder's document is the receiver's (a provider without a lookup cannot confirm it, so such keys are then refused). " +
  'Otherwise 422 PIX_KEY_NOT_OWNED_BY_RECEIVER, which never says who holds the key; a failed lookup is 503 PROVIDER_UNAVAILABLE. Under the policy ANY, enabled only by an operator, any valid key is paid.';
/** docs/architecture/treasury.md, "Liquidity". */
const PAYIN_LIQUIDITY =
  "When the platform's treasury is on chain and cannot cover amountCrypto (its balance of targetToken less what open PAYINs already owe), the PAYIN is refused with 503 TREASURY_INSUFFICIENT_LIQUIDITY before any PIX charge exists (`details`: token); nothing was created, and the same request succeeds once the treasury is funded: retry later. " +
  'While its balance could never be read (the chain\'s RPC node not answering since the service started), whether the tokens can leave is unknown: 503 PROVIDER_UNAVAILABLE with `details.dependency` chain.';
/** docs/architecture/dependency-health.md, "Orders refused". */
const DEPENDENCY_DOWN =
  "Both order types need the PIX provider and the chain's RPC node: while either is down (as GET /readyz shows, its `ordersRefused` listing the types refused), the order is refused with 503 PROVIDER_UNAVAILABLE, `details.dependency` naming it (psp or chain), from the service's own record of its calls and before anything is written or any provider asked; the same request succeeds once the dependency answers again: retry later. A dependency only degraded refuses nothing.";
const PAYIN_DESTINATION =
  "Tokens go only to the receiver: under the merchant's destination policy RECEIVER_ONLY (the default), destinationWallet, when sent, must be the receiver's own wallet (its walletAddress, or its managed wallet's address); otherwise 422 DESTINATION_NOT_RECEIVER_WALLET. Under the policy ANY, enabled only by an operator, any Solana address is accepted.";
/** docs/architecture/compliance-policies.md: the wallet ownership and payer policies, set by an operator. */
const PAYIN_OWNERSHIP =
  "The merchant's wallet ownership policy decides what a PAYIN to a wallet not proven the receiver's does (proof: POST /receivers/{id}/wallet-ownership/challenges, then .../proofs; a managed wallet counts as proven): ALLOW (default) accepts it, LIMITED accepts it while the day's PAYINs to that wallet total at most a BRL cap (São Paulo day; the refusal's details say what the day used), REQUIRED refuses it; a refusal is 422 WALLET_OWNERSHIP_REQUIRED. " +
  'Under the payer policy FIRST_PARTY, a PIX paid by anyone but the receiver (by the CPF/CNPJ the PIX provider reports), or whose payer the provider does not report, is returned and the order ends REFUNDED with a failureReason naming the masked payer document.';

export function registerOrderRoutes(app: App, orders: OrdersService, listing: OrderListing): void {
  app.post(
    '/payin',
    {
      config: { idempotent: { mode: 'in-transaction', lookup: 'service' } },
      schema: {
        tags: ['Payin'],
        summary: 'Create a PAYIN: BRL in by PIX, tokens out to the receiver',
        description: `Answers 201 with the order in AWAITING_PAYMENT, its pixPaymentCode (PIX copy-and-paste code for exactly amountBrl) and expiresAt. Fees come from the merchant's tier for its completed PAYIN volume this month (or from the quote). ${RULES_422} ${DEPENDENCY_DOWN} ${PAYIN_DESTINATION} ${PAYIN_OWNERSHIP} ${PAYIN_LIQUIDITY}`,
        body: PayinBody,
        response: { 201: OrderSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const order = await orders.createPayin(merchantIdOf(request), request.body, request.idempotency);
      logWith(request, { orderId: order.id });
      return reply.code(201).send(order);
    },
  );

  app.post(
    '/payout',
    {
      config: { idempotent: { mode: 'in-transaction', lookup: 'service' } },
      schema: {
        tags: ['Payout'],
        summary: 'Create a PAYOUT: tokens in on chain, BRL out by PIX',
        description: `Answers 201 with the order in AWAITING_DEPOSIT and the depositAddress to send exactly amountCrypto of sourceToken to before expiresAt. The PIX pays netAmountBrl to pixKey (default: the receiver's document as a CPF or CNPJ key). ${RULES_422} ${DEPENDENCY_DOWN} ${PAYOUT_DESTINATION}`,
        body: PayoutBody,
        response: { 201: OrderSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const order = await orders.createPayout(merchantIdOf(request), request.body, request.idempotency);
      logWith(request, { orderId: order.id });
      return reply.code(201).send(order);
    },
  );

  app.get(
    '/orders/:id',
    {
      schema: { tags: ['Orders'], summary: 'One order with its transactions', params: IdParams, response: { 200: OrderSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404) } },
    },
    async (request) => orders.get(merchantIdOf(request), request.params.id),
  );

  app.get(
    '/orders',
    {
      schema: {
        tags: ['Orders'],
        summary: "List the merchant's orders, newest first",
        description:
          '`page` (default 1), `limit` (default 20, at most 100; more is 400), filters `type`, `status`, `receiverId`, `externalId`, `createdFrom` (inclusive), `createdTo` (exclusive), `amountBrlMin` and `amountBrlMax` (inclusive, decimal text with at most 2 decimals compared exactly; a minimum above the maximum is 400). GET /orders/export answers the same filters as CSV. For deep pages use keyset pagination instead of `page`: `startingAfter` = the last order id of the page you have (or `endingBefore` = its first), while `hasMore` is true; each such page costs the same however deep. `total` is exact either way.',
        querystring: OrderListQuery,
        response: { 200: OrderPageSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400) },
      },
    },
    async (request, reply) => {
      const body = await listing.listRendered(merchantIdOf(request), request.query, (page) => Buffer.from(String(reply.serialize(page))));
      // Already serialized by this route's own response serializer (reply.serialize): sent as bytes.
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
}
