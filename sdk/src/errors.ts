/**
 * What a call can throw: the service answered with an error (`ExchangeApiError`, carrying the
 * HTTP status, the spec's Error object and the request id), or no answer arrived at all
 * (`ExchangeNetworkError`). Both extend `ExchangeError`, so one `catch` can tell them apart
 * with `instanceof`.
 */
import type { components } from './generated/openapi.ts';

/** The spec's Error object (Errors): `error` is the machine code, e.g. `VALIDATION_ERROR`. */
export type ErrorBody = components['schemas']['Error'];

/**
 * The service's error catalogue (the contract's `ErrorCode`): `switch (err.code)` narrows, and a
 * misspelt code does not compile. A service newer than this SDK may answer a code not listed here:
 * treat it by `status`.
 */
export type ErrorCode = components['schemas']['ErrorCode'];

/** The catalogue's code for a status, for an answer whose body is not an Error object (a proxy's page). */
const CODE_OF_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
};
const codeOfStatus = (status: number): ErrorCode => CODE_OF_STATUS[status] ?? (status >= 500 ? 'SERVICE_UNAVAILABLE' : 'VALIDATION_ERROR');

export class ExchangeError extends Error {
  override name = 'ExchangeError';
}

export class ExchangeApiError extends ExchangeError {
  override name = 'ExchangeApiError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The machine code of the Error object (`VALIDATION_ERROR`, `NOT_FOUND`, `KYC_NOT_APPROVED`, ...). */
  readonly code: ErrorCode;
  /** Free-form details; for validation errors one entry per bad field (`"body.amountBrl": "..."`). */
  readonly details: Record<string, unknown>;
  /** The request's correlation id (`x-request-id`): quote it when asking for support. */
  readonly requestId: string | undefined;
  /** The Error object as received (or a stand-in when the body was not one). */
  readonly body: ErrorBody;
  /** `Retry-After` in seconds, when the answer carried one (429, 409 in progress, 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: ErrorBody, requestId: string | undefined, retryAfterSeconds?: number) {
    super(`${status} ${body.error}: ${body.message}`);
    this.status = status;
    this.code = body.error;
    this.details = body.details ?? {};
    this.requestId = body.requestId ?? requestId;
    this.body = body;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** No HTTP answer: connection refused or reset, DNS failure, timeout, aborted. `cause` has the original. */
export class ExchangeNetworkError extends ExchangeError {
  override name = 'ExchangeNetworkError';
  readonly method: string;
  readonly url: string;

  constructor(method: string, url: string, cause: unknown) {
    super(`${method} ${url}: no answer (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.method = method;
    this.url = url;
  }
}

/**
 * No answer within the client's `retry.timeoutMs`, on the last attempt. An `ExchangeNetworkError`
 * too: a write may or may not have happened, and sending it again with the same `idempotencyKey`
 * is safe.
 */
export class ExchangeTimeoutError extends ExchangeNetworkError {
  override name = 'ExchangeTimeoutError';
  readonly timeoutMs: number;

  constructor(method: string, url: string, timeoutMs: number, cause: unknown) {
    super(method, url, cause);
    this.message = `${method} ${url}: no answer within ${timeoutMs} ms`;
    this.timeoutMs = timeoutMs;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).error === 'string' && typeof (value as ErrorBody).message === 'string';
}

/**
 * The typed error of a non-2xx answer, whatever its body: a proxy's HTML page is not an Error
 * object, and gets the catalogue's code of its status (502 → SERVICE_UNAVAILABLE), its text in `message`.
 */
export function apiErrorFrom(response: Response, parsedBody: unknown): ExchangeApiError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const body: ErrorBody = isErrorBody(parsedBody)
    ? parsedBody
    : { error: codeOfStatus(response.status), message: typeof parsedBody === 'string' && parsedBody ? parsedBody.slice(0, 200) : response.statusText || 'error', requestId: requestId ?? '' };
  return new ExchangeApiError(response.status, body, requestId, retryAfterSeconds(response));
}

export function retryAfterSeconds(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}
