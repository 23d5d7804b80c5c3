/**
 * `client.api`, the generated openapi-fetch client, under the SDK's one error model: a non-2xx
 * answer throws `ExchangeApiError` (a middleware, after transport.ts's retries), no answer throws
 * `ExchangeNetworkError` / `ExchangeTimeoutError` (transport.ts). So a call either throws or
 * answers `{ data, response }`, and its type says so: `data` is the success body, never undefined
 * for an operation that has one, and there is no `error` branch to check.
 */
import createClient, { type Client, type ClientPathsWithMethod, type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { apiErrorFrom } from './errors.ts';
import type { paths } from './generated/openapi.ts';

/** The parsed body of an error answer: JSON when it is, else its text (a proxy's page). */
async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Throws the typed error of every answer that is not a success, whatever the operation. */
export const throwOnError: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw apiErrorFrom(response, await bodyOf(response));
    return undefined;
  },
};

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** openapi-fetch's init argument: optional when nothing in it is required (its InitParam, not exported). */
type InitArgument<Init> = RequiredKeys<Init> extends never ? [(Init & Record<string, unknown>)?] : [Init & Record<string, unknown>];
/** The success branch of an answer: the error branch is thrown instead. */
type Answered<R> = Extract<R, { error?: never }> & { error?: undefined };

/** An operation of the document (the methods a path lacks are `undefined` in the generated types). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- openapi-fetch's own constraint on an operation
type Operation<O> = Extract<O, Record<string | number, any>>;

type ThrowingMethod<M extends Method> = <Path extends ClientPathsWithMethod<Client<paths>, M>, Init extends MaybeOptionalInit<paths[Path], M>>(
  url: Path,
  ...init: InitArgument<Init>
) => Promise<Answered<FetchResponse<Operation<paths[Path][M]>, Init, `${string}/${string}`>>>;

/** The generated client whose calls throw the SDK's errors: every operation of docs/openapi.json. */
export interface ApiClient {
  GET: ThrowingMethod<'get'>;
  POST: ThrowingMethod<'post'>;
  PUT: ThrowingMethod<'put'>;
  PATCH: ThrowingMethod<'patch'>;
  DELETE: ThrowingMethod<'delete'>;
  /** openapi-fetch's middleware hooks, for your own (logging, tracing). */
  use: Client<paths>['use'];
  eject: Client<paths>['eject'];
}

export function createApiClient(baseUrl: string, fetch: (request: Request) => Promise<Response>): ApiClient {
  const api = createClient<paths>({ baseUrl, fetch });
  api.use(throwOnError);
  // The same object: only its type changes, the error branch being unreachable.
  return api as unknown as ApiClient;
}
