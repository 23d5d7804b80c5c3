/**
 * HTTP to the PSP: mTLS (client certificate and key, optional CA) on every connection, an OAuth2
 * client-credentials token cached until shortly before it expires (and fetched again at once if
 * the PSP refuses it), JSON in and out, and the failure semantics of the port:
 * - timeouts, connection errors, 5xx and 429 are retried with exponential backoff and jitter
 *   (Retry-After honoured), up to maxAttempts; after that a PixProviderError that is `retryable`,
 *   so the worker's step backs off and tries again later;
 * - other 4xx (problem+json) are permanent: PixProviderError with retryable false.
 * The PSP's own words (problem `title`/`detail`) go to logs through the error's `problem`, never
 * into the message clients may see.
 */
import { Agent, request as httpsRequest } from 'node:https';
import type { ApiPixAdapterSettings } from './settings.ts';

export class PixProviderError extends Error {
  readonly status: number | undefined;
  readonly retryable: boolean;
  /** The PSP's problem+json, for operators' logs only. */
  readonly problem: unknown;
  constructor(message: string, options: { status?: number; retryable: boolean; problem?: unknown }) {
    super(message);
    this.name = 'PixProviderError';
    this.status = options.status;
    this.retryable = options.retryable;
    this.problem = options.problem;
  }
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const TOKEN_MARGIN_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createPspHttpClient(settings: ApiPixAdapterSettings) {
  const agent = new Agent({ cert: settings.clientCertPem, key: settings.clientKeyPem, ...(settings.caPem ? { ca: settings.caPem } : {}), keepAlive: true, maxSockets: 16 });
  let token: { value: string; refreshAt: number } | undefined;
  let tokenRequest: Promise<string> | undefined;

  function send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(url, { method, agent, headers: { accept: 'application/json', ...headers }, timeout: settings.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new PixProviderError(`PSP did not answer within ${settings.timeoutMs} ms`, { retryable: true })));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** One call with retries of what may succeed later. */
  async function withRetries(attempt: () => Promise<RawResponse>, what: string): Promise<RawResponse> {
    let last: unknown;
    for (let n = 1; n <= settings.maxAttempts; n++) {
      let waitMs = Math.min(8000, 200 * 2 ** (n - 1)) * (0.5 + Math.random() / 2);
      try {
        const response = await attempt();
        if (response.status < 500 && response.status !== 429) return response;
        last = new PixProviderError(`${what}: PSP answered ${response.status}`, { status: response.status, retryable: true, problem: response.body });
        const retryAfter = Number(response.headers['retry-after']);
        if (Number.isFinite(retryAfter) && retryAfter >= 0) waitMs = Math.min(retryAfter * 1000, 30_000);
      } catch (error) {
        last = error instanceof PixProviderError ? error : new PixProviderError(`${what}: ${(error as Error).message}`, { retryable: true });
      }
      if (n < settings.maxAttempts) await sleep(waitMs);
    }
    throw last;
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64');
    const response = await withRetries(
      () => send('POST', settings.tokenUrl, { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials'),
      'OAuth2 token',
    );
    const body = response.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (response.status !== 200 || typeof body?.access_token !== 'string') {
      throw new PixProviderError(`OAuth2 token: PSP answered ${response.status}`, { status: response.status, retryable: false, problem: body });
    }
    const expiresInMs = (typeof body.expires_in === 'number' ? body.expires_in : 300) * 1000;
    token = { value: body.access_token, refreshAt: Date.now() + Math.max(expiresInMs - TOKEN_MARGIN_MS, expiresInMs / 2) };
    return token.value;
  }

  /** The cached token, or a new one (one request at a time however many calls wait for it). */
  function accessToken(): Promise<string> {
    if (token && Date.now() < token.refreshAt) return Promise.resolve(token.value);
    tokenRequest ??= fetchToken().finally(() => (tokenRequest = undefined));
    return tokenRequest;
  }

  /**
   * An authenticated JSON call. Answers with 2xx and 404 are returned; other 4xx throw a
   * permanent PixProviderError; a 401/403 once refreshes the token and tries again.
   */
  async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const what = `${method} ${new URL(url).pathname}`;
    for (let authAttempt = 0; ; authAttempt++) {
      const bearer = await accessToken();
      const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await withRetries(() => send(method, url, headers, body === undefined ? undefined : JSON.stringify(body)), what);
      if ((response.status === 401 || response.status === 403) && authAttempt === 0) {
        token = undefined;
        continue;
      }
      if ((response.status >= 200 && response.status < 300) || response.status === 404) return response;
      throw new PixProviderError(`${what}: PSP refused the request (${response.status})`, { status: response.status, retryable: false, problem: response.body });
    }
  }

  return { call, close: () => agent.destroy() };
}

export type PspHttpClient = ReturnType<typeof createPspHttpClient>;
