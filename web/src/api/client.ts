/**
 * The one API client of the dashboard: openapi-fetch typed by the SDK's generated `paths`
 * (types only: nothing of the SDK's Node code reaches the bundle). Same origin, so the session
 * cookie (`sid`, HttpOnly) travels by itself; writes add `X-CSRF-Token` from the current session
 * (docs/architecture/people-and-sessions.md#csrf). Pages call only documented routes, through
 * `call()`, which answers the data or throws ApiError.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema.ts';
import { ApiError, type ErrorBody } from './errors.ts';

export const API_BASE = '/api/v1';

let csrfToken: string | null = null;

/** Set by the session query (sign-in, GET /auth/sessions/current) and cleared at sign-out. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const csrf: Middleware = {
  onRequest({ request }) {
    if (!SAFE_METHODS.has(request.method) && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
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
