/**
 * Credentials, as the spec's Authentication allows them: `x-api-key` + `x-api-secret` on every
 * request, a bearer token the caller manages, or key+secret exchanged for a bearer token
 * (POST /auth/token, 15 minutes by default) that the SDK refreshes shortly before it expires
 * and once more when the service answers 401 to it (a clock that runs behind, a restart with
 * new keys).
 */
import { apiErrorFrom, ExchangeNetworkError } from './errors.ts';

export type Auth =
  /** Sends both headers on every request. */
  | { apiKey: string; apiSecret: string; useBearerToken?: false }
  /** Exchanges key and secret for a bearer token and keeps it fresh. */
  | { apiKey: string; apiSecret: string; useBearerToken: true }
  /** A bearer token obtained elsewhere; not refreshed. */
  | { token: string };

/** Default: refresh this long before expiry (capped at half the token's lifetime). */
export const DEFAULT_REFRESH_MARGIN_SECONDS = 60;

export interface TokenManagerOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  fetch: typeof globalThis.fetch;
  refreshMarginSeconds?: number;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

interface HeldToken {
  value: string;
  /** When to get a new one: expiry less the margin. */
  refreshAtMs: number;
}

/** Keeps one bearer token; concurrent callers share one exchange. */
export class TokenManager {
  #options: TokenManagerOptions;
  #now: () => number;
  #held: HeldToken | undefined;
  #pending: Promise<HeldToken> | undefined;
  /** Exchanges made so far (diagnostics and tests). */
  exchanges = 0;

  constructor(options: TokenManagerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** A token valid for at least the margin: the held one, or a fresh one. */
  async token(): Promise<string> {
    const held = this.#held;
    if (held && this.#now() < held.refreshAtMs) return held.value;
    return (await this.#refresh()).value;
  }

  /** The service refused `value` (401): forget it, unless a newer one already replaced it. */
  invalidate(value: string): void {
    if (this.#held?.value === value) this.#held = undefined;
  }

  #refresh(): Promise<HeldToken> {
    this.#pending ??= this.#exchange().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #exchange(): Promise<HeldToken> {
    const { baseUrl, apiKey, apiSecret } = this.#options;
    const url = `${baseUrl}/auth/token`;
    const startedAt = this.#now();
    let response: Response;
    try {
      response = await this.#options.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ apiKey, apiSecret }),
      });
    } catch (err) {
      throw new ExchangeNetworkError('POST', url, err);
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: apiErrorFrom keeps the text
    }
    if (!response.ok) throw apiErrorFrom(response, body);
    const { accessToken, expiresIn } = body as { accessToken: string; expiresIn: number };
    this.exchanges += 1;
    // Measured from before the request: the token may have been issued at any moment of it.
    const margin = Math.min(this.#options.refreshMarginSeconds ?? DEFAULT_REFRESH_MARGIN_SECONDS, expiresIn / 2);
    this.#held = { value: accessToken, refreshAtMs: startedAt + (expiresIn - margin) * 1000 };
    return this.#held;
  }
}
