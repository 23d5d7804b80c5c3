/**
 * The client: `createExchangeClient({ baseUrl, auth })`. `client.api` is the generated,
 * fully typed openapi-fetch client (every operation of docs/openapi.json, answering
 * `{ data, response }`); the resources beside it are the thin hand-written layer for merchants,
 * answering the data and turning lists into async iterators. One error model for both: every
 * call throws `ExchangeApiError` (non-2xx, api.ts), `ExchangeNetworkError` or
 * `ExchangeTimeoutError` (no answer, transport.ts), and every write carries an `Idempotency-Key`.
 */
import type { Auth } from './auth.ts';
import { createApiClient } from './api.ts';
import { createResources } from './resources.ts';
import { createTransport, type RetryOptions } from './transport.ts';

/** The package's version (package.json; a test holds them equal), sent in the User-Agent. */
export const SDK_VERSION = '0.3.0';

export interface ClientOptions {
  /** The API's base URL, version prefix included: `http://127.0.0.1:3000/api/v1`. */
  baseUrl: string;
  auth: Auth;
  /** A fetch of your own (proxies, tests); default the global fetch. */
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
  /** With `useBearerToken`: get a new token this many seconds before expiry (default 60). */
  refreshMarginSeconds?: number;
  /** The clock token expiry is judged by (ms since the epoch); default `Date.now`. */
  now?: () => number;
}

export function createExchangeClient(options: ClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const transport = createTransport({ ...options, baseUrl, userAgent: `crypto-brl-exchange-sdk/${SDK_VERSION}` });
  const api = createApiClient(baseUrl, transport.fetch);
  return {
    /** The generated client: every operation, typed from docs/openapi.json; throws like the resources. */
    api,
    /** The bearer token manager, when key+secret are exchanged for tokens. */
    tokens: transport.tokens,
    ...createResources(api),
  };
}

export type ExchangeClient = ReturnType<typeof createExchangeClient>;
