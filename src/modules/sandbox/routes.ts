/**
 * Sandbox drivers (DESIGN.md §10), mounted only when SANDBOX_ENABLED: a merchant drives its own
 * receivers and orders through the same code paths a real operator or provider would.
 */
import { AppError } from '../../errors.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, IdParams, Timestamp, Uuid, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { Type } from 'typebox';
import { OrderSchema } from '../orders/schemas.ts';
import { ReceiverSchema, SandboxKycBody } from '../receivers/schemas.ts';
import type { ReceiversService } from '../receivers/service.ts';
import { BrlAmountInput, SandboxPayer, StrictObject, TokenAmountInput } from '../../http/schemas.ts';
import type { SandboxDriver } from './service.ts';

const tags = ['Sandbox'];

// Titled: one component each in the OpenAPI document (http/openapi-components.ts).
const FailureStep = Type.Enum(['CHAIN_TRANSFER', 'PIX_PAYOUT', 'PIX_REFUND'], { title: 'SandboxFailureStep' });
/** The keys the sandbox DICT registers: a CPF or CNPJ key needs none, so fewer than PixKeyType. */
const SandboxPixKeyType = Type.Enum(['EMAIL', 'PHONE', 'EVP'], { title: 'SandboxPixKeyType' });

/** What POST /sandbox/orders/{id}/failure-injections answers. */
const FailureInjectionSchema = Type.Object(
  {
    orderId: Uuid(),
    step: FailureStep,
    reason: Type.String(),
    armedAt: Timestamp(),
  },
  { $id: 'SandboxFailureInjection', title: 'SandboxFailureInjection', description: 'A failure armed for one step of one order; it fires once, when the order reaches the step.' },
);

/** What POST /sandbox/orders/{id}/deposit answers with CHAIN_PROVIDER=solana-rpc. */
const DepositSentSchema = Type.Object(
  {
    orderId: Uuid(),
    depositAddress: Type.String({ description: "The order's deposit address (owner); the transfer lands in its associated token account" }),
    depositor: Type.String({ description: "The sandbox depositor's address" }),
    token: Type.String(),
    amount: Type.String({ description: 'Token units sent, decimal text' }),
    signature: Type.String({ description: "The transfer's signature, base58: the deposit's txHash once the watcher credits it" }),
    status: Type.Literal('SENT'),
  },
  { $id: 'SandboxDepositSent', title: 'SandboxDepositSent', description: 'A real deposit transfer accepted by the node; the deposit watcher credits it once final.' },
);

const DepositorSchema = Type.Object(
  {
    address: Type.String({ description: 'base58' }),
    lamports: Type.String({ description: 'SOL balance in lamports, decimal text (refilled from the faucet when low)' }),
    token: Type.String(),
    amount: Type.String({ description: 'Its balance of the token, decimal text' }),
    tokenAccount: Type.String({ description: 'Its associated token account for the token' }),
  },
  { $id: 'SandboxDepositor', title: 'SandboxDepositor' },
);

export function registerSandboxRoutes(app: App, services: { receivers: ReceiversService; sandbox: SandboxDriver }): void {
  app.post(
    '/sandbox/receivers/:id/kyc',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Decide a receiver's KYC in sandbox mode",
        description:
          'The operator decision of KYC (same code path, same events), for the merchant’s own receivers, allowed from PENDING too so tests need no KYC documents. `reason` is required for REJECT.',
        params: IdParams,
        body: SandboxKycBody,
        response: { 200: ReceiverSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const merchantId = merchantIdOf(request);
      const { decision, reason } = request.body;
      if (decision === 'REJECT' && !reason) {
        throw new AppError('VALIDATION_ERROR', 'reason is required to reject', { 'body.reason': 'is required when decision is REJECT' });
      }
      return services.receivers.decideKyc(
        request.params.id,
        decision === 'APPROVE' ? { approved: true } : { approved: false, reason: reason! },
        { actor: `sandbox:merchant:${merchantId}`, requestId: request.id },
        { merchantId, allowFromPending: true },
      );
    },
  );

  app.post(
    '/sandbox/pix-keys',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Register a PIX key's holder in the sandbox PSP's DICT",
        description:
          "The sandbox PSP's key lookup answers the holder registered here for an EMAIL, PHONE or EVP key (registering a key again moves it); a CPF or CNPJ key is always held by that document and needs no registration. " +
          "Under the merchant's RECEIVER_ONLY destination policy a PAYOUT to a non-document key is accepted only when the lookup names the receiver's document. With PIX_PROVIDER=api-pix the PSP's own lookup answers instead.",
        body: StrictObject({
          key: Type.String({ minLength: 1, maxLength: 77 }),
          keyType: SandboxPixKeyType,
          document: Type.String({ minLength: 11, maxLength: 18, description: "The holder's CPF or CNPJ, digits or formatted" }),
        }, { title: 'SandboxPixKeyRequest' }),
        response: {
          201: Type.Object(
            { key: Type.String({ description: 'In DICT form' }), keyType: SandboxPixKeyType, holderDocument: Type.String() },
            { $id: 'SandboxPixKey', title: 'SandboxPixKey' },
          ),
          ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await services.sandbox.registerPixKey(request.body)),
  );

  const orderRoute = { params: IdParams, response: { 200: OrderSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) } };

  app.post(
    '/sandbox/orders/:id/pix-payment',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Pay a PAYIN's PIX charge as the customer",
        description:
          'Drives the sandbox PSP exactly as a real payment: the charge is paid and its notification reaches the order (PAYMENT_RECEIVED, then the worker converts and transfers). `amountBrl` defaults to the order amount; another amount (or a payment after expiry) is refunded automatically. ' +
          "`payer` defaults to the receiver (the charge's devedor), so the payment is first-party; name another CPF or CNPJ to pay as a third party, or send null for a PSP that does not report who paid. Under the merchant's FIRST_PARTY payer policy both are returned to the payer and the order ends REFUNDED.",
        body: StrictObject({
          amountBrl: Type.Optional(BrlAmountInput('What the simulated customer pays; default the order amount')),
          payer: Type.Optional(SandboxPayer()),
        }, { title: 'SandboxPixPaymentRequest' }),
        ...orderRoute,
      },
    },
    async (request) => services.sandbox.payOrder(merchantIdOf(request), request.params.id, request.body.amountBrl, request.body.payer),
  );

  app.post(
    '/sandbox/orders/:id/deposit',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Make a PAYOUT's deposit arrive on chain",
        description:
          '`amountCrypto` defaults to the order amount. As on chain, a deposit never pays more than was ordered: ' +
          'more completes the order for its amount and holds the excess for return (transaction CHAIN_DEPOSIT_EXCESS, HELD); less is re-priced at the locked rate, and fails the order below the minimum order. ' +
          'With the sandbox chain (CHAIN_PROVIDER=sandbox) the deposit is applied at once: 200 with the order in DEPOSIT_RECEIVED; the worker then queues and sends the PIX and the sandbox bank confirms it. ' +
          "With CHAIN_PROVIDER=solana-rpc (a test cluster or the chain simulator) it is a real SPL transferChecked from the sandbox depositor's wallet (GET /sandbox/chain/depositor) to the order's deposit address: " +
          '202 once the node accepted it, with its `signature`; the order is not changed by this call. The deposit watcher finds the transfer at SOLANA_COMMITMENT and credits it like any deposit (order.deposit_received), so follow the order or its webhooks. ' +
          'Calling again (without the same Idempotency-Key) sends another transfer, a second deposit the order does not take. ' +
          'A depositor holding less of the token than the amount is 422 SANDBOX_DEPOSITOR_UNFUNDED (`details`: depositor, token, balance, needed) and nothing is sent: the operator of the test cluster mints to the depositor (the chain simulator: POST /admin/mint-to). Its SOL comes from the node’s faucet (requestAirdrop). A node that fails (or refuses the airdrop) is 503 PROVIDER_UNAVAILABLE: retry.',
        body: StrictObject({ amountCrypto: Type.Optional(TokenAmountInput('What arrives at the deposit address; default the order amount')) }, { title: 'SandboxDepositRequest' }),
        params: IdParams,
        response: { 200: OrderSchema, 202: DepositSentSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const { sandbox } = services;
      const merchantId = merchantIdOf(request);
      if (sandbox.depositsOnChain) return reply.code(202).send(await sandbox.sendDeposit(merchantId, request.params.id, request.body.amountCrypto));
      return sandbox.depositForOrder(merchantId, request.params.id, request.body.amountCrypto);
    },
  );

  app.get(
    '/sandbox/chain/depositor',
    {
      schema: {
        tags,
        summary: "The sandbox depositor's address and balances",
        description:
          "With CHAIN_PROVIDER=solana-rpc, the wallet whose real transfers POST /sandbox/orders/{id}/deposit makes: fund it with the token there (the chain simulator: POST /admin/mint-to with this address as owner). Its key is derived from WALLET_KEK (never stored, the same at every start), so its address changes only with the KEK. With the sandbox chain there is none: 404.",
        querystring: StrictObject({ token: Type.Optional(Type.String({ minLength: 1, maxLength: 16, description: 'A configured token symbol; default USDC' })) }),
        response: { 200: DepositorSchema, ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404, 503) },
      },
    },
    async (request) => services.sandbox.depositorBalance(request.query.token ?? 'USDC'),
  );

  app.post(
    '/sandbox/orders/:id/fail',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Make one step of an order fail',
        description:
          'CHAIN_TRANSFER (PAYIN, before or while converting): the token transfer fails, so the PIX is refunded. PIX_PAYOUT (PAYOUT in PIX_SENT_UNCONFIRMED): the receiving bank refuses the PIX. PIX_REFUND (PAYIN in REFUNDING): the refund fails and the order needs an operator. ' +
          'PIX_PAYOUT and PIX_REFUND act on an order that is in that status now, which the worker leaves within milliseconds: to produce them reliably, arm them ahead with POST /sandbox/orders/{id}/failure-injections.',
        body: StrictObject({
          step: FailureStep,
          reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
        }, { title: 'SandboxFailOrderRequest' }),
        ...orderRoute,
      },
    },
    async (request) =>
      services.sandbox.failOrder(merchantIdOf(request), request.params.id, request.body.step, request.body.reason ?? 'Simulated failure'),
  );

  app.post(
    '/sandbox/orders/:id/failure-injections',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Arm a failure of an order step ahead of time',
        description:
          'Failure injection scheduled ahead: the step fails when the order reaches it, however soon that is, so every event (order.failed of both types, a failed refund) can be produced without racing the worker. ' +
          'CHAIN_TRANSFER (PAYIN, before its transfer: AWAITING_PAYMENT, PAYMENT_RECEIVED, SWAPPING): the token transfer lands FAILED → order.refunding, then order.refunded. ' +
          'PIX_PAYOUT (PAYOUT, before its PIX settles: AWAITING_DEPOSIT to PIX_SENT_UNCONFIRMED): the receiving bank refuses the PIX → order.failed. ' +
          'PIX_REFUND (PAYIN, before its refund settles): the refund comes back NAO_REALIZADO → order.failed (the order needs an operator). ' +
          'Arm CHAIN_TRANSFER and PIX_REFUND together for a PAYIN that ends FAILED. Arming a step again replaces its reason.',
        params: IdParams,
        body: StrictObject({
          step: FailureStep,
          reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "The provider's answer the failure carries (default: Simulated failure)" })),
        }, { title: 'SandboxFailureInjectionRequest' }),
        response: { 201: FailureInjectionSchema, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const armed = await services.sandbox.armFailure(merchantIdOf(request), request.params.id, request.body.step, request.body.reason ?? 'Simulated failure');
      return reply.code(201).send(armed);
    },
  );
}

