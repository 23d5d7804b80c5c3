/**
 * The route harness: every route an app registers, found as Fastify registers it, probed for the
 * three ways a route most often goes wrong on security: it answers without credentials, it
 * serves another merchant's resource, or it breaks (500) on a malformed body. A new route is
 * probed without anyone listing it; what the probes may not guess (which routes are public by
 * design, what a path parameter names) is the caller's policy (test/http/route-harness.test.ts),
 * and a route the policy does not cover is itself a finding.
 *
 * The probes return findings instead of asserting, so a test can also show that a broken route
 * is reported.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { OPERATION_IDS } from '../../src/http/openapi-operations.ts';
import { REQUEST_EXAMPLES } from '../../src/http/openapi-examples.ts';
import { API_PREFIX } from '../../src/http/openapi.ts';
import type { App } from '../../src/http/types.ts';
import { adminHeaders } from './factories.ts';

export interface RegisteredRoute {
  method: string;
  /** The full path as registered, `:name` for a parameter (`/api/v1/orders/:id`). */
  url: string;
  /** The route's options after every onRoute hook ran (schema with the scope's security, ...). */
  options: RouteOptions;
  /** The app that registered it, to call it on. */
  app: App;
}

export const routeKey = (route: Pick<RegisteredRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

/**
 * Runs `build` and returns what it built with every route of every Fastify instance created
 * meanwhile. Fastify announces each new instance on the `fastify.initialization` diagnostics
 * channel before any plugin runs, so an onRoute hook added there sees every route, those of
 * encapsulated scopes included, with no test-only code in the app. HEAD routes Fastify adds beside
 * each GET are left out (same handler, same hooks).
 */
export async function collectRoutes<T>(build: () => Promise<T>): Promise<{ result: T; routes: RegisteredRoute[] }> {
  const routes: RegisteredRoute[] = [];
  const listener = (message: unknown) => {
    const { fastify } = message as { fastify: App };
    fastify.addHook('onRoute', (options) => {
      for (const method of [options.method].flat()) routes.push({ method, url: options.url, options: options as RouteOptions, app: fastify });
    });
  };
  subscribe('fastify.initialization', listener);
  try {
    const result = await build();
    return { result, routes: routes.filter((route) => !(route.method === 'HEAD' && hasGetBeside(routes, route))) };
  } finally {
    unsubscribe('fastify.initialization', listener);
  }
}

const hasGetBeside = (routes: RegisteredRoute[], head: RegisteredRoute) => routes.some((route) => route.app === head.app && route.method === 'GET' && route.url === head.url);

/** Where a path parameter's value comes from. */
export type ParamRule<Resource extends string> =
  /** A resource some merchant owns: merchant A's, and merchant B must get 404 for it. */
  | { owned: Resource }
  /** Not a merchant's resource (an enum, a public chain address, a secret): this value, and why. */
  | { value: string; why: string };

/** What a `...Id` field names: a merchant's resource (A's, which B must not reach), or why it is none. */
export type IdFieldRule<Resource extends string> = { owned: Resource } | { why: string };

export interface HarnessPolicy<Resource extends string> {
  /** `METHOD url` → what an anonymous caller gets, and why the route is public. */
  publicRoutes: Readonly<Record<string, { anonymous: number; why: string }>>;
  /** `<segment before the parameter>/:<parameter>` (`orders/:id`) → where its value comes from. */
  pathParams: Readonly<Record<string, ParamRule<Resource>>>;
  /** A query or body property named `...Id` (`receiverId`) → what it names. */
  idFields: Readonly<Record<string, IdFieldRule<Resource>>>;
  /** Routes only the operator may call (ADMIN_TOKEN). */
  isAdminRoute(url: string): boolean;
}

export interface HarnessActors<Resource extends string> {
  /** Merchant A: owns `resources`. */
  merchantA: Record<string, string>;
  /** Merchant B: must never reach A's resources. */
  merchantB: Record<string, string>;
  /**
   * Merchant B again as a person: a session cookie with its X-CSRF-Token (an OWNER with TOTP, who
   * holds every permission), as the dashboard calls the API. Probed like `merchantB` when given.
   */
  merchantBSession?: Record<string, string>;
  /** Other credentials a merchant holds (a bearer token), refused on admin routes like the key. */
  merchantBearer: Record<string, string>;
  /** Ids of merchant A's resources. */
  resources: Readonly<Record<Resource, string>>;
}

/** A well-formed id that names nothing: what B gets for it is what B must get for A's ids. */
const UNKNOWN_ID = '00000000-0000-7000-8000-000000000000';

type Probe = { route: RegisteredRoute; headers: Record<string, string>; url: string; payload?: string };

async function call({ route, headers, url, payload }: Probe): Promise<LightMyRequestResponse> {
  return route.app.inject({
    method: route.method as 'GET',
    url,
    headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload }),
  });
}

const shown = (response: LightMyRequestResponse) => `${response.statusCode} ${response.body.slice(0, 300)}`;

/** What is wrong with an answer that should be the spec's Error object with this status, if anything. */
function errorObjectProblem(response: LightMyRequestResponse, expected: number[]): string | undefined {
  if (!expected.includes(response.statusCode)) return `expected ${expected.join(' or ')}, got ${shown(response)}`;
  let body: { error?: unknown; message?: unknown; requestId?: unknown };
  try {
    body = response.json();
  } catch {
    return `expected the Error object, got ${shown(response)}`;
  }
  if (typeof body.error !== 'string' || typeof body.message !== 'string' || body.requestId !== response.headers['x-request-id']) {
    return `expected the Error object (error, message, requestId = x-request-id), got ${shown(response)}`;
  }
  return undefined;
}

/** The segment before each `:param` of a path, with the parameter (`/orders/:id/x` → `orders/:id`). */
export function paramKeys(url: string): string[] {
  const segments = url.split('/');
  return segments.flatMap((segment, i) => (segment.startsWith(':') || segment === '*' ? [`${segments[i - 1]}/${segment === '*' ? ':*' : segment}`] : []));
}

/** The route's path with each parameter's value: its rule's, or `ids` for the owned ones. */
function pathFor<Resource extends string>(url: string, policy: HarnessPolicy<Resource>, ids: (resource: Resource) => string): string {
  const segments = url.split('/');
  return segments
    .map((segment, i) => {
      if (!segment.startsWith(':') && segment !== '*') return segment;
      const rule = policy.pathParams[`${segments[i - 1]}/${segment === '*' ? ':*' : segment}`]!;
      return encodeURIComponent('owned' in rule ? ids(rule.owned) : rule.value);
    })
    .join('/');
}

/** The properties of the route's query or body schema that look like ids (`...Id`). */
function idFieldsOf(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return Object.keys(properties).filter((name) => /Ids?$/.test(name));
}

/** A body the route's schema accepts, when the contract has an example for it (openapi-examples.ts). */
function exampleBody(route: RegisteredRoute): Record<string, unknown> | unknown[] | undefined {
  const relative = route.url.startsWith(`${API_PREFIX}/`) ? route.url.slice(API_PREFIX.length) : route.url;
  const operationId = OPERATION_IDS[`${route.method} ${relative.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`];
  return operationId === undefined ? undefined : (REQUEST_EXAMPLES[operationId] as Record<string, unknown> | unknown[] | undefined);
}

const hasBody = (route: RegisteredRoute) => ['POST', 'PUT', 'PATCH'].includes(route.method);

/**
 * Probes every route and returns what is wrong, one line per finding (`METHOD url: problem`).
 * Each route is called with merchant A's resources in its path (so a refusal is not for want of
 * a real resource):
 * - authentication: a route neither public by policy nor refused without credentials (401); an
 *   admin route a merchant's key or bearer token reaches (401 or 403); a merchant route the admin
 *   token reaches (401); a public route answering an anonymous caller other than the policy says,
 *   or documented otherwise in the contract (a shown route's `security: []` means public);
 * - tenancy: a path parameter or `...Id` field with no rule; a merchant route that answers
 *   merchant B (its API key, and a person's session cookie when `merchantBSession` is given), for
 *   A's resource in its path or in a `...Id` field of its query or body, other than it answers
 *   for an id that does not exist (404 with the Error object for a path), or with A's ids in a
 *   successful answer. B sends the contract's example body, so that the request
 *   passes validation and reaches the lookup;
 * - bodies: a body route answering other than 400 with the Error object to invalid JSON, to a
 *   JSON array where its schema wants an object (an object where it wants an array), or to its
 *   example body with a lone surrogate in one of its strings.
 */
export async function probeRoutes<Resource extends string>(routes: RegisteredRoute[], policy: HarnessPolicy<Resource>, actors: HarnessActors<Resource>): Promise<string[]> {
  const findings: string[] = [];
  const keys = new Set(routes.map(routeKey));
  for (const key of Object.keys(policy.publicRoutes)) {
    if (!keys.has(key)) findings.push(`${key}: in the public allow-list but not registered (remove the entry)`);
  }
  for (const route of routes) {
    const report = (problem: string) => findings.push(`${routeKey(route)}: ${problem}`);
    const unmapped = [
      ...paramKeys(route.url).filter((key) => !(key in policy.pathParams)).map((key) => `path parameter ${key} has no rule in pathParams`),
      ...(policy.isAdminRoute(route.url) ? [] : [...idFieldsOf(route.options.schema?.querystring), ...idFieldsOf(route.options.schema?.body)])
        .filter((field) => !(field in policy.idFields))
        .map((field) => `field ${field} has no rule in idFields`),
    ];
    if (unmapped.length > 0) {
      report(`${unmapped.join('; ')}: say whose resource it names`);
      continue;
    }
    const url = pathFor(route.url, policy, (resource) => actors.resources[resource]);
    if (!reaches(route, url)) {
      report(`the harness's URL ${url} does not reach this route (a pathParams value that does not match its pattern)`);
      continue;
    }
    await probeAuthentication(route, url, policy, actors, report);
    await probeBodies(route, url, policy, actors, report);
    await probeTenancy(route, policy, actors, report);
  }
  return findings;
}

type Report = (problem: string) => void;

/** Whether `url` is routed to `route` (so a 404 means what the route answered, not "no such route"). */
function reaches(route: RegisteredRoute, url: string): boolean {
  const found = route.app.findRoute({ method: route.method as 'GET', url: decodeURIComponent(url) });
  const expected = paramKeys(route.url).map((key) => key.slice(key.indexOf('/:') + 2));
  return found !== null && JSON.stringify(Object.keys(found.params ?? {}).sort()) === JSON.stringify(expected.sort());
}

async function probeAuthentication<R extends string>(route: RegisteredRoute, url: string, policy: HarnessPolicy<R>, actors: HarnessActors<R>, report: Report) {
  const publicRoute = policy.publicRoutes[routeKey(route)];
  // What the contract tells integrators: an empty security list means "no credentials".
  const schema = route.options.schema as { hide?: boolean; security?: unknown[] } | undefined;
  const documentedPublic = schema?.security?.length === 0;
  if (publicRoute) {
    const response = await call({ route, headers: {}, url });
    if (response.statusCode !== publicRoute.anonymous) report(`public by the allow-list with ${publicRoute.anonymous} for an anonymous caller, got ${shown(response)}`);
    if (!schema?.hide && !documentedPublic) report('public by the allow-list, but its OpenAPI security is not [] (the contract asks for credentials)');
    return;
  }
  if (documentedPublic) report('its OpenAPI security is [] (public), but it is not in the allow-list');
  const anonymous = errorObjectProblem(await call({ route, headers: {}, url }), [401]);
  if (anonymous) report(`without credentials: ${anonymous} (a route public by design belongs in the allow-list, with why)`);
  const strangers: Array<[string, Record<string, string>, number[]]> = policy.isAdminRoute(route.url)
    ? [
        ['with a merchant API key', actors.merchantA, [401, 403]],
        ['with a merchant bearer token', actors.merchantBearer, [401, 403]],
      ]
    : [['with the admin token', adminHeaders, [401]]];
  for (const [who, headers, expected] of strangers) {
    const problem = errorObjectProblem(await call({ route, headers, url }), expected);
    if (problem) report(`${who}: ${problem}`);
  }
}

async function probeBodies<R extends string>(route: RegisteredRoute, url: string, policy: HarnessPolicy<R>, actors: HarnessActors<R>, report: Report) {
  if (!hasBody(route)) return;
  const headers = policy.publicRoutes[routeKey(route)] ? {} : policy.isAdminRoute(route.url) ? adminHeaders : actors.merchantA;
  const invalidJson = errorObjectProblem(await call({ route, headers, url, payload: '{' }), [400]);
  if (invalidJson) report(`with the body \`{\` (invalid JSON): ${invalidJson}`);
  const body = route.options.schema?.body as { type?: string } | undefined;
  if (!body) return;
  const wrongShape = body.type === 'array' ? '{"unexpected":true}' : '[{"unexpected":true}]';
  const problem = errorObjectProblem(await call({ route, headers, url, payload: wrongShape }), [400]);
  if (problem) report(`with the body ${wrongShape}: ${problem}`);
  // Text no database holds: each string of the example in turn (alone, so that no other field's
  // refusal hides it) ending in a lone surrogate, which UTF-8 cannot encode and jsonb refuses.
  const example = exampleBody(route);
  for (const path of stringPaths(example)) {
    const payload = JSON.stringify(withString(example, path, (text) => `${text}\ud800`));
    const refused = errorObjectProblem(await call({ route, headers, url, payload }), [400]);
    if (refused) report(`with a lone surrogate in body.${path.join('.')}: ${refused}`);
  }
}

/** The path of every string in a JSON value. */
function stringPaths(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return [path];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => stringPaths(child, [...path, Array.isArray(value) ? Number(key) : key]));
}

/** A copy of `value` with the string at `path` changed. */
function withString(value: unknown, path: Array<string | number>, change: (text: string) => string): unknown {
  if (path.length === 0) return change(value as string);
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head!] = withString(copy[head!], rest, change);
  return copy;
}

async function probeTenancy<R extends string>(route: RegisteredRoute, policy: HarnessPolicy<R>, actors: HarnessActors<R>, report: Report) {
  if (policy.publicRoutes[routeKey(route)] || policy.isAdminRoute(route.url)) return;
  const owned = (rule: ParamRule<R> | IdFieldRule<R> | undefined): rule is { owned: R } => rule !== undefined && 'owned' in rule;
  const pathOwned = paramKeys(route.url).filter((key) => owned(policy.pathParams[key]));
  const example = hasBody(route) ? (exampleBody(route) ?? {}) : undefined;
  const payload = (ids: (resource: R) => string) => {
    if (example === undefined) return {};
    if (Array.isArray(example)) return { payload: JSON.stringify(example) };
    const fields = idFieldsOf(route.options.schema?.body).filter((field) => owned(policy.idFields[field]));
    return { payload: JSON.stringify({ ...example, ...Object.fromEntries(fields.map((field) => [field, ids((policy.idFields[field] as { owned: R }).owned)])) }) };
  };
  const aIds = (resource: R) => actors.resources[resource];
  const unknownIds = () => UNKNOWN_ID;
  const bodyOwned = idFieldsOf(route.options.schema?.body).filter((field) => owned(policy.idFields[field]));
  const callers: Array<[string, Record<string, string>]> = [['merchant B', actors.merchantB], ...(actors.merchantBSession ? [["merchant B's session", actors.merchantBSession] as [string, Record<string, string>]] : [])];

  for (const [who, headers] of callers) {
    const asB = (ids: (resource: R) => string, query = '') => call({ route, headers, url: pathFor(route.url, policy, ids) + query, ...payload(ids) });
    if (pathOwned.length > 0 || bodyOwned.length > 0) {
      const what = [...pathOwned, ...bodyOwned].join(', ');
      const [forA, forNothing] = [await asB(aIds), await asB(unknownIds)];
      const problem = pathOwned.length > 0 ? errorObjectProblem(forA, [404]) : errorObjectProblem(forA, [400, 404, 409, 422]);
      if (problem) report(`as ${who} with merchant A's ${what}: ${problem}`);
      else if (refusalsDiffer(forA, forNothing)) report(`as ${who}, A's ${what} answers ${shown(forA)} but an unknown id ${shown(forNothing)}: another merchant's ids must look like ids that do not exist`);
    }
    // A list's filter by another merchant's id: an empty list or a refusal, never their records.
    // (A route with an owned path parameter was refused above already.)
    if (pathOwned.length > 0) continue;
    for (const field of idFieldsOf(route.options.schema?.querystring).filter((name) => owned(policy.idFields[name]))) {
      const resource = (policy.idFields[field] as { owned: R }).owned;
      const response = await asB(unknownIds, `?${field}=${actors.resources[resource]}`);
      const leaked = Object.values<string>(actors.resources).filter((id) => id !== actors.resources[resource] && response.body.includes(id));
      if (response.statusCode >= 500 || (response.statusCode < 300 && leaked.length > 0)) report(`as ${who} with ?${field}= merchant A's ${resource}: ${shown(response)}`);
    }
  }
}

/** Whether two answers differ in status or error code (an oracle: the id exists elsewhere). */
function refusalsDiffer(a: LightMyRequestResponse, b: LightMyRequestResponse): boolean {
  const code = (response: LightMyRequestResponse) => {
    try {
      return `${response.statusCode} ${(response.json() as { error?: string }).error}`;
    } catch {
      return `${response.statusCode} ${response.body}`;
    }
  };
  return code(a) !== code(b);
}
