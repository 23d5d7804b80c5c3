/**
 * Which machine codes (the Error object's `error`) each error response can carry, shown as one
 * example of the Error object per code. A status's codes are the generic ones any route answering
 * it can give (GENERIC_CODES: 400 VALIDATION_ERROR, 404 NOT_FOUND, 409 CONFLICT and, where the
 * route takes an Idempotency-Key, IDEMPOTENCY_CONFLICT…) plus the codes the route's own service
 * throws (ROUTE_CODES, read from the services; each lands under its catalogue status). 422 has
 * no generic code: every route documenting a 422 names its codes here, and the test
 * (test/http/openapi-examples.test.ts) fails on a 4xx or 5xx without an example.
 */
import type { ErrorCode } from '../../errors.ts';
import { REQUEST_ID } from './values.ts';

export const GENERIC_CODES: Readonly<Record<number, readonly ErrorCode[]>> = {
  400: ['VALIDATION_ERROR'],
  401: ['UNAUTHORIZED'],
  403: ['FORBIDDEN'],
  404: ['NOT_FOUND'],
  // An Idempotency-Key still in flight is a CONFLICT too (idempotency.ts), so every 409 can carry it.
  409: ['CONFLICT'],
  410: ['LINK_INVALID'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  429: ['RATE_LIMITED'],
  500: ['INTERNAL_ERROR'],
  // The database too busy to answer in time (error-handler.ts), on any route.
  503: ['SERVICE_UNAVAILABLE'],
};

/** Added to a 409 when the operation takes an Idempotency-Key: the same key with another request. */
export const IDEMPOTENCY_CODE: ErrorCode = 'IDEMPOTENCY_CONFLICT';

const ORDER_RULES: ErrorCode[] = ['KYC_NOT_APPROVED', 'RECEIVER_NOT_ACTIVE', 'NIGHT_TRANSACTIONS_DISABLED', 'LIMIT_EXCEEDED', 'QUOTE_EXPIRED', 'QUOTE_INVALID', 'PRICE_UNAVAILABLE', 'PROVIDER_UNAVAILABLE'];
const RECEIVER_SIGNING: ErrorCode[] = ['NO_MANAGED_WALLET', 'KYC_NOT_APPROVED', 'RECEIVER_NOT_ACTIVE', 'TRANSACTION_REJECTED'];
const SENDING: ErrorCode[] = ['SPONSOR_BUDGET_EXCEEDED', 'PROVIDER_UNAVAILABLE'];

/** The codes an operation's service throws beyond the generic ones, by operationId. */
export const ROUTE_CODES: Readonly<Record<string, readonly ErrorCode[]>> = {
  createQuote: ['PRICE_UNAVAILABLE'],
  createPayin: [...ORDER_RULES, 'DESTINATION_NOT_RECEIVER_WALLET', 'WALLET_OWNERSHIP_REQUIRED', 'TREASURY_INSUFFICIENT_LIQUIDITY'],
  createPayout: [...ORDER_RULES, 'PIX_KEY_NOT_OWNED_BY_RECEIVER'],
  createStandingPixCharge: ['KYC_NOT_APPROVED', 'RECEIVER_NOT_ACTIVE', 'NO_RECEIVER_WALLET'],
  createStandingDepositAddress: ['KYC_NOT_APPROVED', 'RECEIVER_NOT_ACTIVE', 'PIX_KEY_NOT_OWNED_BY_RECEIVER'],
  proveWalletOwnership: ['WALLET_SIGNATURE_INVALID', 'CHALLENGE_EXPIRED', 'CHALLENGE_USED', 'WALLET_PROVEN_BY_ANOTHER_PERSON'],
  submitDisputeDefense: ['DEFENSE_DEADLINE_PASSED', 'DISPUTE_NOT_OPEN', 'PROVIDER_UNAVAILABLE'],
  sandboxMakeDeposit: ['SANDBOX_DEPOSITOR_UNFUNDED', 'PROVIDER_UNAVAILABLE'],
  sandboxGetDepositor: ['PROVIDER_UNAVAILABLE'],
  sandboxAirdrop: ['TRANSACTION_REJECTED'],
  signReceiverTransaction: RECEIVER_SIGNING,
  signAndSendReceiverTransaction: [...RECEIVER_SIGNING, ...SENDING],
  signMerchantTransaction: ['TRANSACTION_REJECTED'],
  signAndSendMerchantTransaction: ['TRANSACTION_REJECTED', ...SENDING],
  inviteUser: ['PROVIDER_UNAVAILABLE'],
  adminCreateOperator: ['PROVIDER_UNAVAILABLE'],
  adminGetTreasury: ['PROVIDER_UNAVAILABLE'],
};

/** One realistic Error object per code: the message (and details) the service gives, on the example story. */
const ERRORS: Readonly<Record<ErrorCode, { message: string; details?: Record<string, unknown> }>> = {
  VALIDATION_ERROR: { message: 'amountBrl must have at most 2 decimals', details: { 'body.amountBrl': 'must have at most 2 decimals' } },
  UNAUTHORIZED: { message: 'Invalid API key or secret' },
  FORBIDDEN: { message: 'This API key lacks the scope payments.write', details: { reason: 'SCOPE_REQUIRED', scope: 'payments.write' } },
  NOT_FOUND: { message: 'Order not found' },
  CONFLICT: { message: 'a request with this Idempotency-Key is in progress; retry later' },
  LINK_INVALID: { message: 'This invitation link is unknown, already used or expired: ask for a new one' },
  IDEMPOTENCY_CONFLICT: { message: 'This Idempotency-Key was already used with a different request (another body, route or parameters); use a new key for a new request' },
  PAYLOAD_TOO_LARGE: { message: 'Body is larger than the allowed limit' },
  UNSUPPORTED_MEDIA_TYPE: { message: 'Unsupported content-type; send application/json' },
  LIMIT_EXCEEDED: {
    message: 'The order exceeds the receiver’s daily limits (America/Sao_Paulo calendar day)',
    details: { dailyLimitBrl: 50000, dailyTransactionLimit: 20 },
  },
  NIGHT_TRANSACTIONS_DISABLED: {
    message: 'Receiver does not allow transactions between 20:00 and 06:00 (America/Sao_Paulo)',
    details: { nightStart: '20:00', nightEnd: '06:00' },
  },
  QUOTE_EXPIRED: { message: 'The quote has expired; request a new one', details: { expiresAt: '2026-11-24T14:03:28.120Z' } },
  QUOTE_INVALID: { message: 'The quote was already used by another order', details: { quoteId: '0195f3c4-1b7e-7f20-8a55-2d9c0e4b7f13' } },
  RECEIVER_NOT_ACTIVE: { message: 'Receiver is SUSPENDED; orders need ACTIVE', details: { status: 'SUSPENDED' } },
  KYC_NOT_APPROVED: { message: 'Receiver KYC is SUBMITTED; orders need APPROVED', details: { kycStatus: 'SUBMITTED' } },
  NO_RECEIVER_WALLET: { message: 'The receiver has no wallet address: set one (or create a managed wallet) before a standing charge' },
  NO_MANAGED_WALLET: { message: 'This receiver has no managed wallet (create it with createManagedWallet: true)' },
  TRANSACTION_REJECTED: {
    message: 'instruction 1 calls program BPFLoaderUpgradeab1e11111111111111111111111, which is not in the allow-list',
    details: { reason: 'PROGRAM_NOT_ALLOWED', instructionIndex: 1, programId: 'BPFLoaderUpgradeab1e11111111111111111111111' },
  },
  SPONSOR_BUDGET_EXCEEDED: {
    message:
      "The platform sponsors at most 50000000 lamports of fees per merchant per day (São Paulo time); 49995000 are used today and this transaction's fee is 10000. The budget resets at 2026-11-25T03:00:00.000Z",
    details: { budgetLamports: 50000000, usedLamports: 49995000, feeLamports: 10000, day: '2026-11-24', resetsAt: '2026-11-25T03:00:00.000Z' },
  },
  PIX_KEY_NOT_OWNED_BY_RECEIVER: {
    message: "The PIX key must be the receiver's own (merchant destination policy RECEIVER_ONLY): the PIX provider does not confirm that the receiver holds this key",
    details: { 'body.pixKey': 'is not shown to be held by the receiver', destinationPolicy: 'RECEIVER_ONLY' },
  },
  DESTINATION_NOT_RECEIVER_WALLET: {
    message: "destinationWallet must be the receiver's own wallet, its walletAddress or managed wallet (merchant destination policy RECEIVER_ONLY)",
    details: { 'body.destinationWallet': "is not the receiver's wallet", destinationPolicy: 'RECEIVER_ONLY' },
  },
  WALLET_OWNERSHIP_REQUIRED: {
    message:
      "The destination wallet is not proven to be the receiver's, and the merchant allows PAYINs to an unproven wallet only up to 500.00 BRL a day (São Paulo time), 0.00 BRL of it used today: prove the wallet is the receiver's: POST /receivers/{id}/wallet-ownership/challenges with the walletAddress, sign the message with the wallet, then POST /receivers/{id}/wallet-ownership/proofs with the challengeId and the signature (base58); or use the receiver's managed wallet",
    details: { 'body.destinationWallet': "is not proven to be the receiver's", walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: 500, unprovenWalletUsedTodayBrl: 0 },
  },
  WALLET_SIGNATURE_INVALID: {
    message: "The signature is not the wallet's Ed25519 signature of the challenge's message (sign its exact text; send the 64-byte signature in base58)",
    details: { 'body.signature': 'does not verify', walletAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' },
  },
  CHALLENGE_EXPIRED: {
    message: 'This challenge has expired; ask for a new challenge and sign it before its expiresAt.',
    details: { expiresAt: '2026-11-24T13:50:05.217Z' },
  },
  CHALLENGE_USED: { message: 'This challenge was already used by a proof; each challenge proves once. Ask for a new one' },
  WALLET_PROVEN_BY_ANOTHER_PERSON: {
    message: 'This wallet is already proven as the wallet of another person (a receiver with another document); a self-hosted wallet belongs to one person. Use a wallet of this receiver’s own.',
    details: { walletAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' },
  },
  SANDBOX_DEPOSITOR_UNFUNDED: {
    message: 'The sandbox depositor holds 120.000000 USDC, less than 250.000000: fund FoHQLeC8NS7JByQBLeWQ9DHWsHTNmrHMB8HrQdV9YsUb (mint-to on the chain simulator)',
    details: { depositor: 'FoHQLeC8NS7JByQBLeWQ9DHWsHTNmrHMB8HrQdV9YsUb', token: 'USDC', balance: '120.000000', needed: '250.000000' },
  },
  DEFENSE_DEADLINE_PASSED: { message: 'The defense deadline passed at 2026-11-29T10:12:33.908Z', details: { defenseDeadline: '2026-11-29T10:12:33.908Z' } },
  DISPUTE_NOT_OPEN: { message: 'The claim is DEFENDED: a defense is taken only while it is OPEN', details: { status: 'DEFENDED' } },
  RATE_LIMITED: { message: 'Too many requests; retry in 12 seconds', details: { retryAfterSeconds: 12 } },
  INTERNAL_ERROR: { message: 'An unexpected error occurred' },
  PROVIDER_UNAVAILABLE: { message: 'The PIX provider is unavailable, so no PAYIN is taken now; the order was not created. Retry later.', details: { dependency: 'psp' } },
  PRICE_UNAVAILABLE: { message: 'No current price for USDC; nothing was priced. Retry later.', details: { token: 'USDC' } },
  SERVICE_UNAVAILABLE: { message: 'The service is busy; retry shortly' },
  TREASURY_INSUFFICIENT_LIQUIDITY: { message: "The platform's treasury cannot cover this USDC order now; no PIX charge was created. Retry later.", details: { token: 'USDC' } },
};

/** The Error object an example shows for `code`. */
export function errorExample(code: ErrorCode): Record<string, unknown> {
  const { message, details } = ERRORS[code];
  return { error: code, message, ...(details ? { details } : {}), requestId: REQUEST_ID };
}
