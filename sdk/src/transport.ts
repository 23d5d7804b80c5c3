/**
 * The one place every request of the generated client passes through (openapi-fetch's `fetch`
 * option): credentials, an `Idempotency-Key` on every write, and retries.
 *
 * Idempotency (docs/architecture/idempotency.md): every POST, PUT, PATCH and DELETE carries
 * a key — the caller's, else a random UUID made once per call — and every retry of that call
 * sends the same key, so the service runs the operation at most once and replays its answer.
 * Retried: no answer at all (the effect may or may not have happened: the key makes that safe),
 * 429, 502, 503, 504, 500, and 409 with `Retry-After` (the same key still in progress).
 * An attempt unanswered within `retry.timeoutMs` (30 s) counts as no answer.
 * A 401 to a bearer token the SDK obtained is retried once with a fresh token.
 */
import { randomUUID } from 'node:crypto';
import { type Auth, TokenManager } from './auth.ts';
import { ExchangeNetworkError, ExchangeTimeoutError, retryAfterSeconds } from './errors.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

export interface RetryOptions {
  /** Retries after the first attempt (default 2; 0 disables). */
  maxRetries?: number;
  /**
   * Longest wait for one attempt's answer (default 30 s). A write whose attempt timed out is
   * retried with its key like one whose answer was lost; the last one throws `ExchangeTimeoutError`.
   */
  timeoutMs?: number;
  /** First backoff, doubled per retry, with jitter (default 250 ms). */
  baseDelayMs?: number;
  /** Longest wait, also for a `Retry-After` (default 10 s). */
  maxDelayMs?: number;
}

export interface TransportOptions {
  baseUrl: string;
  auth: Auth;
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
  userAgent?: string;
  refreshMarginSeconds?: number;
  now?: () => number;
}

export interface Transport {
  fetch: (request: Request) => Promise<Response>;
  /** Present when key+secret are exchanged for bearer tokens. */
  tokens: TokenManager | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createTransport(options: TransportOptions): Transport {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const { auth } = options;
  const maxRetries = options.retry?.maxRetries ?? 2;
  const baseDelayMs = options.retry?.baseDelayMs ?? 250;
  const maxDelayMs = options.retry?.maxDelayMs ?? 10_000;
  const timeoutMs = options.retry?.timeoutMs ?? 30_000;
  const tokens =
    'apiKey' in auth && auth.useBearerToken
      ? new TokenManager({
          baseUrl: options.baseUrl,
          apiKey: auth.apiKey,
          apiSecret: auth.apiSecret,
          fetch: fetchImpl,
          ...(options.refreshMarginSeconds !== undefined ? { refreshMarginSeconds: options.refreshMarginSeconds } : {}),
          ...(options.now ? { now: options.now } : {}),
        })
      : undefined;

  /** Sets the credentials on `headers`; answers the bearer token it used, if the SDK manages it. */
  async function authenticate(headers: Headers): Promise<string | undefined> {
    if (tokens) {
      const token = await tokens.token();
      headers.set('authorization', `Bearer ${token}`);
      return token;
    }
    if ('token' in auth) headers.set('authorization', `Bearer ${auth.token}`);
    else {
      headers.set('x-api-key', auth.apiKey);
      headers.set('x-api-secret', auth.apiSecret);
    }
    return undefined;
  }

  function delayFor(attempt: number, response?: Response): number {
    const told = response ? retryAfterSeconds(response) : undefined;
    const backoff = baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2);
    return Math.min(maxDelayMs, told !== undefined ? told * 1000 : backoff);
  }

  function retryable(response: Response): boolean {
    if (RETRIED_STATUSES.has(response.status)) return true;
    // 409 CONFLICT "in progress" carries Retry-After; IDEMPOTENCY_CONFLICT (another request) does not.
    return response.status === 409 && response.headers.has('retry-after');
  }

  async function send(request: Request): Promise<Response> {
    const method = request.method.toUpperCase();
    const headers = new Headers(request.headers);
    if (WRITE_METHODS.has(method) && !headers.has('idempotency-key')) headers.set('idempotency-key', randomUUID());
    if (options.userAgent) headers.set('user-agent', options.userAgent);
    // Read once so that every attempt can send the same bytes.
    const body = request.body ? await request.arrayBuffer() : undefined;
    let refreshedAfter401 = false;
    for (let attempt = 0; ; ) {
      const usedToken = await authenticate(headers);
      const deadline = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        const signal = AbortSignal.any([request.signal, deadline]);
        response = await fetchImpl(new Request(request.url, { method, headers, body, signal, redirect: 'manual' }));
      } catch (err) {
        // The caller's abort ends the call at once; the deadline is a lost answer, retried.
        const timedOut = deadline.aborted && !request.signal.aborted;
        if (request.signal.aborted || attempt >= maxRetries) throw timedOut ? new ExchangeTimeoutError(method, request.url, timeoutMs, err) : new ExchangeNetworkError(method, request.url, err);
        await sleep(delayFor(attempt));
        attempt += 1;
        continue;
      }
      if (response.status === 401 && usedToken !== undefined && !refreshedAfter401) {
        refreshedAfter401 = true;
        tokens!.invalidate(usedToken);
        await response.body?.cancel();
        continue;
      }
      if (retryable(response) && attempt < maxRetries) {
        await response.body?.cancel();
        await sleep(delayFor(attempt, response));
        attempt += 1;
        continue;
      }
      return response;
    }
  }

  return { fetch: send, tokens };
}
