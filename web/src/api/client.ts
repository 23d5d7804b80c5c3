/**
 * The one API client of the dashboard: openapi-fetch typed by the SDK's generated `paths`
 * (types only: nothing of the SDK's Node code reaches the bundle). Same origin, so the session
 * cookie (`sid`, HttpOnly) travels by itself; writes add `X-CSRF-Token` from the current session
 * (docs/architecture/people-and-sessions.md#csrf). Pages call only documented routes, through
 * `call()`, which answers the data or throws ApiError.
 *
 * Two sessions may be open in one browser: a merchant person's (`sid`, every route but /admin)
 * and an operator's (`osid`, Path=/api/v1/admin). Each has its own CSRF token, so the client
 * keeps one per scope and sends the operator's on /admin writes and the merchant's elsewhere.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema.ts';
import { ApiError, type ErrorBody } from './errors.ts';

export const API_BASE = '/api/v1';

/** Which session a request belongs to: the operator's for /api/v1/admin, the merchant person's otherwise. */
export type SessionScope = 'merchant' | 'operator';

const csrfTokens: Record<SessionScope, string | null> = { merchant: null, operator: null };

/** Set by a session query (sign-in, GET …/sessions/current) and cleared at sign-out. */
export function setCsrfToken(token: string | null, scope: SessionScope = 'merchant'): void {
  csrfTokens[scope] = token;
}

const ADMIN_PREFIX = `${API_BASE}/admin/`;
const scopeOf = (url: string): SessionScope => (new URL(url, 'http://any').pathname.startsWith(ADMIN_PREFIX) ? 'operator' : 'merchant');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const csrf: Middleware = {
  onRequest({ request }) {
    const token = SAFE_METHODS.has(request.method) ? null : csrfTokens[scopeOf(request.url)];
    if (token) request.headers.set('X-CSRF-Token', token);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: API_BASE, credentials: 'same-origin' });
api.use(csrf);

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's data, or ApiError from the spec's Error object (or NETWORK_ERROR when fetch itself failed). */
export async function call<T>(request: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch {
    throw new ApiError(0, {});
  }
  if (answer.response.ok) return answer.data as T;
  const body = answer.error;
  throw new ApiError(answer.response.status, typeof body === 'object' && body !== null ? (body as Partial<ErrorBody>) : {});
}
