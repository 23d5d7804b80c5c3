import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { LiteSvmSandbox } from '../../adapters/chain/litesvm-sandbox.ts';
import { merchantIdOf } from '../../http/auth.ts';
import { AppError } from '../../errors.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, StrictObject, Timestamp, Uuid, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { isSolanaAddress } from '../../lib/solana.ts';
import type { WalletSettings } from '../../config.ts';
import type { SignOptions, WalletOwner, WalletsService } from './service.ts';

const tags = ['Wallets'];

const SolanaAddress = (description: string) => Type.String({ description, examples: ['4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'] });

export const TransactionBody = StrictObject({
  transaction: Type.String({
    minLength: 1,
    maxLength: 4096,
    description: 'A Solana wire transaction (legacy or v0 message, with its signature slots), base64-encoded.',
  }),
}, { title: 'TransactionToSign' });
const SignedTransaction = Type.Object({ signedTransaction: Type.String({ description: 'The wire transaction with the managed wallet\'s signature added, base64' }) }, { title: 'SignedTransaction' });
const SentTransaction = Type.Object({ hash: Type.String({ description: "The transaction's first signature (the platform fee payer's), base58" }) }, { title: 'SentTransaction' });
const ReceiverParams = StrictObject({ receiverId: Uuid('The receiver whose managed wallet signs') });

const SIGN_DESCRIPTION =
  'Decodes the base64 wire transaction, checks that the managed wallet is one of its required signers (else 422 TRANSACTION_REJECTED, `details.reason` MANAGED_KEY_NOT_SIGNER), adds its Ed25519 signature and keeps every other signature as it is. Nothing is sent: the caller completes and submits the transaction, and the fee payer it names pays (a key the caller signs with, or the managed wallet; the platform fee payer never signs here). Malformed base64 or transaction bytes: 400 VALIDATION_ERROR on `body.transaction`; messages other than legacy or v0: 422.';

const SEND_DESCRIPTION = [
  'The platform pays the gas: the message is recompiled with the platform fee payer (published at `GET /wallet/fee-payer`) as account 0 and a fresh blockhash, signed by the fee payer and the managed wallet, simulated, and sent. Answers `hash`, the first signature (the fee payer\'s), base58.',
  'The fee-payer rule: every message has a fee payer (account 0); name the platform fee payer of `GET /wallet/fee-payer`. The managed wallet there is accepted too and replaced by the platform fee payer; any other fee payer is refused (FOREIGN_SIGNER). The platform pays the transaction fee only (5,000 lamports per signature plus the priority fee); rent, transfers and everything else are paid by the managed wallet. Do not simulate or send the transaction on a public node first: only the platform\'s rewritten transaction is valid, and the blockhash you used is replaced. docs/solana-signing.md has the rule and a worked @solana/kit example.',
  'Refused with 422 TRANSACTION_REJECTED before anything is sent, `details.reason` saying why:',
  '(1) UNSUPPORTED_VERSION, ADDRESS_LOOKUP_TABLES: only legacy or v0 messages with static account keys;',
  '(2) FOREIGN_SIGNER, MANAGED_KEY_NOT_SIGNER: the only required signers may be the managed wallet (which must be one) and the platform fee payer;',
  '(3) SPONSOR_TRANSFER, SPONSOR_FUNDS_ACCOUNT, SPONSOR_PAYS_RENT, SPONSOR_IN_INSTRUCTION, SPONSOR_AS_PROGRAM, SPONSOR_NOT_FEE_PAYER: the fee payer may appear nowhere but as fee payer;',
  '(4) PROGRAM_NOT_ALLOWED, TOO_MANY_INSTRUCTIONS, NO_INSTRUCTIONS: programs outside the allow-list (default: the programs the current @solana-program/* clients target, i.e. System, SPL Token, Token-2022, Associated Token Account, Compute Budget, and Memo: the @solana-program/memo default `Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH` and the classic `MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr` and `Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo`), or nothing but Compute Budget instructions;',
  '(5) DURABLE_NONCE: AdvanceNonceAccount transactions;',
  '(6) INVALID_COMPUTE_BUDGET, COMPUTE_UNIT_PRICE_TOO_HIGH, COMPUTE_UNIT_LIMIT_TOO_HIGH, FEE_TOO_HIGH: a compute-unit price over WALLET_MAX_CU_PRICE_MICROLAMPORTS (default 10,000 micro-lamports), a compute-unit limit over WALLET_MAX_CU_LIMIT (default 200,000; with a price set, the runtime default of 200,000 per instruction counts when no SetComputeUnitLimit is given), or a total fee over WALLET_MAX_FEE_LAMPORTS (default 12,000 lamports); `details.max` is the cap;',
  '(7) TRANSACTION_TOO_LARGE: over 1232 bytes after the rewrite;',
  '(8) SIMULATION_FAILED: the simulation fails (failed transactions still cost the fee payer); `details.simulationError` and `details.logs` say how.',
  'The sponsor\'s daily budget: each merchant\'s sponsored fees, all its wallets together, are at most WALLET_SPONSOR_DAILY_BUDGET_LAMPORTS (default 500,000,000 = 0.5 SOL) per São Paulo calendar day, counted in the database across every server; a transaction whose fee would pass it is refused with 422 SPONSOR_BUDGET_EXCEEDED before it is sent (`details`: budgetLamports, usedLamports, feeLamports, day, resetsAt). Each sent transaction\'s fee is charged to the merchant in the ledger (GET /ledger/entries, kind SPONSORED_FEE, in SOL); a transaction refused by the simulation was never sent and its fee is given back (SPONSORED_FEE_RELEASED).',
  'Rate-limited per wallet, counted only for the merchant\'s own receivers (an unknown receiver is 404 first). Every request that reaches a wallet, accepted or refused, is recorded for audit.',
].join(' ');

const SIGN_ERRORS = [...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 404, 422];

/** The receiver endpoints' own refusals (issue 15), before the transaction is read. */
const RECEIVER_RULES =
  "The receiver must be able to transact: a KYC status other than APPROVED is 422 KYC_NOT_APPROVED (`details.kycStatus`), a status other than ACTIVE (SUSPENDED, BLOCKED) 422 RECEIVER_NOT_ACTIVE (`details.status`); both are read at every request, so a receiver suspended or rejected is refused from its next request on. A receiver without a managed wallet: 422 NO_MANAGED_WALLET; another merchant's receiver: 404.";

export function registerWalletRoutes(app: App, wallets: WalletsService, options: Pick<WalletSettings, 'signRateLimitPerMinute'>): void {
  // A second limiter of its own, per wallet: @fastify/rate-limit runs one route limiter per request
  // and the merchant scope's per-credential limiter already is that one. The service runs it once
  // the receiver is known to be the merchant's (`admit`), so its keys are verified wallets only:
  // unknown receiver ids are 404 and can neither spend nor evict a real wallet's count.
  const limiter =
    options.signRateLimitPerMinute > 0
      ? app.createRateLimit({
          max: options.signRateLimitPerMinute,
          timeWindow: 60_000,
          keyGenerator: (request) => `wallet-sign:${merchantIdOf(request)}:${(request.params as { receiverId?: string }).receiverId ?? 'merchant'}`,
        })
      : undefined;
  const perWallet = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!limiter) return;
    const result = await limiter(request);
    if (result.isAllowed || !result.isExceeded) return;
    reply.header('retry-after', String(result.ttlInSeconds));
    throw new AppError('RATE_LIMITED', `Too many sign requests for this wallet; retry in ${result.ttlInSeconds} s`, { retryAfterSeconds: result.ttlInSeconds });
  };
  const receiverOwner = (request: FastifyRequest & { params: { receiverId: string } }): WalletOwner => ({
    merchantId: merchantIdOf(request),
    receiverId: request.params.receiverId,
  });
  const optionsOf = (request: FastifyRequest, reply: FastifyReply): SignOptions => ({ requestId: request.id, admit: () => perWallet(request, reply), idempotency: request.idempotency });

  app.post(
    '/receivers/:receiverId/wallet/sign-transaction',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Sign a transaction with a receiver's managed wallet",
        description: `${SIGN_DESCRIPTION} ${RECEIVER_RULES}`,
        params: ReceiverParams,
        body: TransactionBody,
        response: { 200: SignedTransaction, ...errorResponses(...SIGN_ERRORS) },
      },
    },
    async (request, reply) => wallets.signTransaction(receiverOwner(request), request.body.transaction, optionsOf(request, reply)),
  );

  app.post(
    '/receivers/:receiverId/wallet/sign-and-send-transaction',
    {
      config: { idempotent: { mode: 'held', resume: (effect) => wallets.resumeSend(effect) } },
      schema: {
        tags,
        summary: "Sign with a receiver's managed wallet and send, the platform paying the fee",
        description: `${SEND_DESCRIPTION} ${RECEIVER_RULES} The network unreachable: 503 PROVIDER_UNAVAILABLE.`,
        params: ReceiverParams,
        body: TransactionBody,
        response: { 200: SentTransaction, ...errorResponses(...SIGN_ERRORS, 503) },
      },
    },
    async (request, reply) => wallets.signAndSendTransaction(receiverOwner(request), request.body.transaction, optionsOf(request, reply)),
  );

  app.get(
    '/merchant/wallet',
    {
      schema: {
        tags,
        summary: "The merchant's own managed wallet",
        description: 'Created on the first call (concurrent first calls get the same wallet). The private key never leaves the platform.',
        response: {
          200: Type.Object({ address: SolanaAddress('The wallet\'s Solana address (its Ed25519 public key, base58)'), createdAt: Timestamp() }, { title: 'MerchantWallet' }),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => wallets.merchantWallet(merchantIdOf(request)),
  );

  app.post(
    '/merchant/wallet/sign-transaction',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Sign a transaction with the merchant's own managed wallet",
        description: SIGN_DESCRIPTION,
        body: TransactionBody,
        response: { 200: SignedTransaction, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 422) },
      },
    },
    async (request, reply) => wallets.signTransaction({ merchantId: merchantIdOf(request) }, request.body.transaction, optionsOf(request, reply)),
  );

  app.post(
    '/merchant/wallet/sign-and-send-transaction',
    {
      config: { idempotent: { mode: 'held', resume: (effect) => wallets.resumeSend(effect) } },
      schema: {
        tags,
        summary: "Sign with the merchant's own managed wallet and send, the platform paying the fee",
        description: `${SEND_DESCRIPTION} The network unreachable: 503 PROVIDER_UNAVAILABLE.`,
        body: TransactionBody,
        response: { 200: SentTransaction, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 422, 503) },
      },
    },
    async (request, reply) => wallets.signAndSendTransaction({ merchantId: merchantIdOf(request) }, request.body.transaction, optionsOf(request, reply)),
  );
}

/** Public, like the JWKS: clients may name the fee payer themselves. */
export function registerFeePayerRoute(app: App, wallets: WalletsService): void {
  app.get(
    '/wallet/fee-payer',
    {
      schema: {
        tags,
        summary: "The platform's fee payer",
        description:
          'The address that pays the fee of every `sign-and-send-transaction`: name it as the transaction\'s fee payer (account 0; the managed wallet there is accepted and replaced, any other fee payer is refused with FOREIGN_SIGNER). Never use it in an instruction. See docs/solana-signing.md.',
        security: [],
        response: { 200: Type.Object({ address: SolanaAddress('The fee payer\'s Solana address') }, { title: 'FeePayer' }), ...errorResponses() },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return wallets.feePayer();
    },
  );
}

const AddressParams = StrictObject({ address: Type.String({ minLength: 32, maxLength: 44, description: 'A Solana address' }) });
const Balance = Type.Object({ address: Type.String(), lamports: Type.Integer({ description: 'Balance in lamports' }) }, { title: 'SandboxBalance' });
const checkedAddress = (address: string, field: string) => {
  if (!isSolanaAddress(address)) throw new AppError('VALIDATION_ERROR', `${field} must be a Solana address`, { [field]: 'must be a Solana address (base58, 32 bytes)' });
  return address;
};

/** Test helpers over the LiteSVM sandbox chain (mounted with the sandbox, only when no SOLANA_RPC_URL is set). */
export function registerWalletSandboxRoutes(app: App, chain: LiteSvmSandbox): void {
  const sandboxTags = ['Sandbox'];
  app.post(
    '/sandbox/wallet/airdrop',
    {
      config: { idempotent: true },
      schema: {
        tags: sandboxTags,
        summary: 'Sandbox chain: credit lamports to an address',
        description: 'The chain may refuse a credit (e.g. below the rent-exempt minimum of a new account, or to a program or sysvar): 422 TRANSACTION_REJECTED.',
        body: StrictObject({ address: Type.String({ description: 'A Solana address' }), lamports: Type.Integer({ minimum: 1, maximum: 1_000_000_000_000 }) }, { title: 'SandboxAirdropRequest' }),
        response: { 200: Balance, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS, 422) },
      },
    },
    async (request) => {
      const address = checkedAddress(request.body.address, 'body.address');
      await chain.airdrop(address, BigInt(request.body.lamports));
      return { address, lamports: Number(await chain.getBalance(address)) };
    },
  );

  app.get(
    '/sandbox/wallet/balances/:address',
    {
      schema: {
        tags: sandboxTags,
        summary: 'Sandbox chain: the lamports of an address',
        params: AddressParams,
        response: { 200: Balance, ...errorResponses(...AUTHENTICATED_ERRORS, 400) },
      },
    },
    async (request) => {
      const address = checkedAddress(request.params.address, 'params.address');
      return { address, lamports: Number(await chain.getBalance(address)) };
    },
  );

  app.get(
    '/sandbox/wallet/transactions/:signature',
    {
      schema: {
        tags: sandboxTags,
        summary: 'Sandbox chain: the status of a transaction by its signature',
        params: StrictObject({ signature: Type.String({ minLength: 64, maxLength: 88, description: 'base58' }) }),
        response: {
          200: Type.Object({
            signature: Type.String(),
            status: Type.Union([Type.Literal('FINALIZED'), Type.Literal('FAILED')]),
            error: Type.Optional(Type.String()),
          }, { title: 'SandboxTransactionStatus' }),
          ...errorResponses(...AUTHENTICATED_ERRORS, 400, 404),
        },
      },
    },
    async (request) => {
      const [status] = await chain.getSignatureStatuses([request.params.signature]);
      if (!status) throw new AppError('NOT_FOUND', 'Transaction not found on the sandbox chain');
      return { signature: request.params.signature, status: status.status === 'FAILED' ? ('FAILED' as const) : ('FINALIZED' as const), ...(status.error ? { error: status.error } : {}) };
    },
  );
}
