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
  UNAUTHORIZED: { message: 'Missing or invalid credentials' },
  FORBIDDEN: { message: 'This credential lacks the scope payments.write', details: { requiredScope: 'payments.write' } },
  NOT_FOUND: { message: 'Order not found' },
  CONFLICT: { message: 'A request with this Idempotency-Key is still in progress; retry shortly' },
  LINK_INVALID: { message: 'This link is unknown, already used or expired; ask for a new one' },
  IDEMPOTENCY_CONFLICT: { message: 'This Idempotency-Key was already used with another request' },
  PAYLOAD_TOO_LARGE: { message: 'Body larger than 1048576 bytes' },
  UNSUPPORTED_MEDIA_TYPE: { message: 'Content-Type must be application/json' },
  LIMIT_EXCEEDED: {
    message: 'The order exceeds the receiver’s daily limits (America/Sao_Paulo calendar day)',
    details: { dailyLimitBrl: 50000, usedTodayBrl: 49200, amountBrl: 1500 },
  },
  NIGHT_TRANSACTIONS_DISABLED: { message: 'Receiver does not allow transactions between 20:00 and 06:00 (America/Sao_Paulo)' },
  QUOTE_EXPIRED: { message: 'The quote has expired; request a new one', details: { expiresAt: '2026-11-24T14:03:28.120Z' } },
  QUOTE_INVALID: { message: 'The quote was already used by another order', details: { quoteId: '0195f3c4-1b7e-7f20-8a55-2d9c0e4b7f13' } },
  RECEIVER_NOT_ACTIVE: { message: 'Receiver is SUSPENDED; orders need ACTIVE', details: { status: 'SUSPENDED' } },
  KYC_NOT_APPROVED: { message: 'Receiver KYC is SUBMITTED; orders need APPROVED', details: { kycStatus: 'SUBMITTED' } },
  NO_MANAGED_WALLET: { message: 'The receiver has no managed wallet' },
  TRANSACTION_REJECTED: {
    message: 'The transaction transfers from an account the managed wallet does not own',
    details: { reason: 'FOREIGN_SOURCE_ACCOUNT' },
  },
  SPONSOR_BUDGET_EXCEEDED: { message: 'The daily budget of sponsored Solana fees would be passed; retry tomorrow or pay the fee yourself' },
  PIX_KEY_NOT_OWNED_BY_RECEIVER: { message: 'The PIX key is not held by the receiver (RECEIVER_ONLY destination policy)' },
  DESTINATION_NOT_RECEIVER_WALLET: { message: 'destinationWallet is not the receiver’s own wallet (RECEIVER_ONLY destination policy)' },
  WALLET_OWNERSHIP_REQUIRED: {
    message: 'The merchant accepts PAYINs only to a wallet proven to be the receiver’s: prove it with POST /receivers/{id}/wallet-ownership/challenges',
  },
  WALLET_SIGNATURE_INVALID: { message: 'The signature is not the wallet’s Ed25519 signature of the challenge’s message' },
  CHALLENGE_EXPIRED: { message: 'The challenge expired; ask for a new one' },
  CHALLENGE_USED: { message: 'This challenge was already used by a proof; each challenge proves once. Ask for a new one' },
  WALLET_PROVEN_BY_ANOTHER_PERSON: { message: 'This wallet was proven by a receiver with another document' },
  SANDBOX_DEPOSITOR_UNFUNDED: { message: 'The sandbox depositor holds 120.000000 USDC, less than the 250.000000 to deposit' },
  DEFENSE_DEADLINE_PASSED: { message: 'The defense deadline passed at 2026-11-29T10:12:33.908Z', details: { defenseDeadline: '2026-11-29T10:12:33.908Z' } },
  DISPUTE_NOT_OPEN: { message: 'The claim is DEFENDED: a defense is taken only while it is OPEN', details: { status: 'DEFENDED' } },
  RATE_LIMITED: { message: 'Rate limit exceeded, retry in 12 seconds' },
  INTERNAL_ERROR: { message: 'Internal server error' },
  PROVIDER_UNAVAILABLE: { message: 'The PIX provider is unavailable; the order was not created. Retry later.' },
  PRICE_UNAVAILABLE: { message: 'No current price for USDC; nothing was priced. Retry later.', details: { token: 'USDC' } },
  SERVICE_UNAVAILABLE: { message: 'The service is busy; retry shortly' },
  TREASURY_INSUFFICIENT_LIQUIDITY: { message: 'The platform’s treasury cannot cover this USDC order now; no PIX charge was created. Retry later.', details: { token: 'USDC' } },
};

/** The Error object an example shows for `code`. */
export function errorExample(code: ErrorCode): Record<string, unknown> {
  const { message, details } = ERRORS[code];
  return { error: code, message, ...(details ? { details } : {}), requestId: REQUEST_ID };
}
