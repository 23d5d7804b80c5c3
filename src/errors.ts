/**
 * The closed catalogue of error codes and their HTTP status (DESIGN.md §4). Services throw
 * AppError with one of these codes; the error handler turns it into the spec's Error object.
 * Adding a code here is the only way to add one.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** A password-reset or invitation link that is unknown, already used or expired: ask for a new one. */
  LINK_INVALID: 410,
  IDEMPOTENCY_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  LIMIT_EXCEEDED: 422,
  NIGHT_TRANSACTIONS_DISABLED: 422,
  QUOTE_EXPIRED: 422,
  QUOTE_INVALID: 422,
  RECEIVER_NOT_ACTIVE: 422,
  KYC_NOT_APPROVED: 422,
  NO_MANAGED_WALLET: 422,
  /** A standing PIX charge for a receiver without a wallet address: its tokens would have nowhere to go. */
  NO_RECEIVER_WALLET: 422,
  TRANSACTION_REJECTED: 422,
  /** The merchant's daily budget of sponsored Solana fees (WALLET_SPONSOR_DAILY_BUDGET_LAMPORTS) would be passed. */
  SPONSOR_BUDGET_EXCEEDED: 422,
  /** A PAYOUT's PIX key is not shown to be the receiver's, under the merchant's RECEIVER_ONLY destination policy. */
  PIX_KEY_NOT_OWNED_BY_RECEIVER: 422,
  /** A PAYIN's destinationWallet is not the receiver's own wallet, under the merchant's RECEIVER_ONLY destination policy. */
  DESTINATION_NOT_RECEIVER_WALLET: 422,
  /**
   * A PAYIN to a wallet not proven the receiver's, refused by the merchant's wallet ownership
   * policy (REQUIRED; LIMITED above its per-order cap): prove it (POST /receivers/{id}/wallet-ownership/challenges).
   */
  WALLET_OWNERSHIP_REQUIRED: 422,
  /** A wallet ownership proof whose signature is not the wallet's Ed25519 signature of the challenge's message. */
  WALLET_SIGNATURE_INVALID: 422,
  /** A wallet ownership challenge past its expiration time: ask for a new one. */
  CHALLENGE_EXPIRED: 422,
  /** A wallet ownership challenge already used by a proof (each is single-use): ask for a new one. */
  CHALLENGE_USED: 409,
  /**
   * A wallet already proven by a receiver with another document, of this merchant or another: a
   * self-hosted wallet belongs to one person (docs/decisions/0026-personal-data-sealed-at-rest.md).
   */
  WALLET_PROVEN_BY_ANOTHER_PERSON: 409,
  /** Sandbox with CHAIN_PROVIDER=solana-rpc: the sandbox depositor holds too little of the token to make the deposit asked for. */
  SANDBOX_DEPOSITOR_UNFUNDED: 422,
  /** A MED claim's defense arrived after its deadline (the PSP takes none then). */
  DEFENSE_DEADLINE_PASSED: 422,
  /** A defense of a MED claim that is no longer OPEN: already defended, or decided (details.status). */
  DISPUTE_NOT_OPEN: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PROVIDER_UNAVAILABLE: 503,
  /** No price fresh enough to trade on (the price source is down or stale): quotes and orders wait. */
  PRICE_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  /**
   * The platform's treasury cannot cover the tokens a PAYIN would send (docs/architecture/treasury.md):
   * refused before the PIX charge exists; the same request succeeds once the treasury is funded.
   */
  TREASURY_INSUFFICIENT_LIQUIDITY: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details?: ErrorDetails;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    if (details !== undefined) this.details = details;
  }
}

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', `${what} not found`);

/** A 400 for one bad field: `details` names it (`body.amountBrl`, `querystring.page`), the message reads without the prefix. */
export const invalidField = (field: string, problem: string): AppError =>
  new AppError('VALIDATION_ERROR', `${field.replace(/^(body|querystring|params)\./, '')} ${problem}`, { [field]: problem });

/**
 * 503 PROVIDER_UNAVAILABLE without the provider's own words: its host, port and error text are the
 * cause, which the error handler logs with the request id; the client learns only what failed.
 */
export const providerUnavailable = (message: string, cause: unknown): AppError => Object.assign(new AppError('PROVIDER_UNAVAILABLE', message), { cause });
