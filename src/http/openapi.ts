/**
 * The OpenAPI 3.1 document, generated from the routes' TypeBox schemas, served at
 * /api/v1/openapi.json, with an interactive reference at /docs (DOCS_ENABLED: off in production
 * unless enabled, since it serves a browser application and its assets from the API's origin).
 *
 * The server URL is /api/v1 and paths are relative to it (the spec's `{base_url}` already ends
 * with /api/v1), written first as an absolute URL with variables (serversAt); the operations
 * served at the root (/healthz, /readyz, /metrics) are a second document, served at
 * /openapi.json, whose server is the root (splitRootOperations). operationIds and
 * tags come from openapi-operations.ts, body examples from openapi-examples.ts, answer examples
 * (every 2xx with content, and the codes of every error response) from
 * openapi-response-examples.ts. Rules applied to
 * the whole document rather than to each route (applyDocumentRules): a parameter with a default
 * is not required (the client may leave it out), a body whose every property is optional is not
 * required either (json-body.ts reads no body, or an empty one, as `{}`), and every 429 lists the
 * RateLimit headers it carries. Then every titled schema becomes one component and success
 * responses are described from their schema (openapi-components.ts). The webhook events are the
 * document's `webhooks` section, from the catalog's definitions (openapi-webhooks.ts).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { REQUEST_EXAMPLES } from './openapi-examples.ts';
import { describeResponses, hoistNamedSchemas } from './openapi-components.ts';
import { applyResponseExamples } from './openapi-response-examples.ts';
import { OPERATION_IDS, TAGS } from './openapi-operations.ts';
import { WEBHOOK_HEADER_PARAMETERS, type WebhookCatalogEntry, webhooksSection } from './openapi-webhooks.ts';

export const API_PREFIX = '/api/v1';
/** PORT's default (config/schema.ts, which http/ may not import; test/http/openapi.test.ts holds them equal). */
export const DEFAULT_PORT = 3000;

/**
 * A document's servers, for paths relative to `base`. First an absolute URL with variables:
 * generators (hey-api, orval, openapi-typescript's clients) and mock servers (Prism) take the
 * first server as the base URL and cannot resolve a relative one, so it defaults to a service
 * started locally and says what to change. Then `base` itself, relative: the origin the document
 * is served from, which the reference at /docs tries requests against (sameOriginFirst).
 */
export function serversAt(base: string, portNote = ''): Array<{ url: string; description: string; variables?: Record<string, { default: string; enum?: string[]; description: string }> }> {
  return [
    {
      url: `{scheme}://{host}:{port}${base}`,
      description: 'A running service: by default one started locally (npm start)',
      variables: {
        scheme: { default: 'http', enum: ['http', 'https'], description: 'https behind TLS' },
        host: { default: 'localhost', description: "The service's host name" },
        port: { default: String(DEFAULT_PORT), description: `The service's port (PORT, ${DEFAULT_PORT} by default; 443 behind TLS)${portNote}` },
      },
    },
    { url: base || '/', description: 'The origin this document is served from' },
  ];
}

/** The servers with the relative one first: what the interactive reference sends its requests to. */
const sameOriginFirst = (servers: Array<{ url: string }> = []) => [...servers.filter(({ url }) => url.startsWith('/')), ...servers.filter(({ url }) => !url.startsWith('/'))];

type SecurityRequirement = Record<string, string[]>;

/** Merchant routes accept either alternative (spec, Authentication §1). */
export const MERCHANT_SECURITY: SecurityRequirement[] = [{ ApiKey: [], ApiSecret: [] }, { BearerAuth: [] }, { Session: [] }];
/** Back-office routes: an operator's session, or the admin token (bootstrap and automation). */
export const ADMIN_SECURITY: SecurityRequirement[] = [{ OperatorSession: [] }, { AdminToken: [] }];

/**
 * `webhookEvents`: the webhook catalog's entries (GET /webhook/events serves the same), published
 * as the document's `webhooks` section (openapi-webhooks.ts).
 */
export async function registerOpenApi(app: FastifyInstance, options: { docs: boolean; webhookEvents: readonly WebhookCatalogEntry[] }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Crypto/BRL Exchange Merchant API',
        version: '1.0.0',
        description: [
          'Business-to-business exchange between Brazilian reais (PIX) and crypto (Solana tokens).',
          '',
          'Every error answers the Error object `{error, message, details?, requestId}`; `requestId` equals the `x-request-id` response header (send your own `x-request-id`, 1 to 128 characters of `[A-Za-z0-9._:-]`, to correlate).',
          'Unknown body properties are rejected (400 VALIDATION_ERROR). Timestamps are ISO 8601 UTC with milliseconds; ids are UUIDs.',
          '',
          'Bodies are JSON (`Content-Type: application/json`; anything else is 415 UNSUPPORTED_MEDIA_TYPE), at most BODY_LIMIT_BYTES (413 PAYLOAD_TOO_LARGE) and nested at most 32 levels deep (400 VALIDATION_ERROR). An empty body with a JSON content type is read as no body.',
          '',
          'Rate-limited operations (every merchant route, per credential; `POST /auth/token`, per client IP; wallet signing, per wallet) answer with the headers of the IETF RateLimit draft (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Limit` (requests per window), `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the window resets, not an epoch). Over the limit: 429 RATE_LIMITED with `Retry-After` (seconds).',
        ].join('\n'),
      },
      servers: serversAt(API_PREFIX),
      tags: [...TAGS],
      components: {
        headers: RATE_LIMIT_HEADERS,
        parameters: WEBHOOK_HEADER_PARAMETERS,
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Public key id (mk_...); send together with x-api-secret' },
          ApiSecret: { type: 'apiKey', in: 'header', name: 'x-api-secret', description: 'API secret (sk_...), shown once at creation' },
          BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /api/v1/auth/token (15 minutes)' },
          Session: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'A person signed in with POST /api/v1/auth/sessions; writes also need the X-CSRF-Token header, and the role table applies (docs/architecture/people-and-sessions.md)' },
          OperatorSession: { type: 'apiKey', in: 'cookie', name: 'osid', description: 'An operator signed in with POST /api/v1/admin/auth/sessions (Path=/api/v1/admin); writes also need the X-CSRF-Token header, and the operator role table applies (docs/architecture/back-office.md)' },
          AdminToken: { type: 'http', scheme: 'bearer', description: 'The admin token (ADMIN_TOKEN), for /api/v1/admin routes only: bootstrap of the first operator and automation; every use is audited' },
          MetricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for GET /metrics only' },
        },
      },
      security: MERCHANT_SECURITY,
    },
    transform: ({ schema, url, route }) => ({ url, schema: withOperationMetadata(schema, url, route.method) }),
    transformObject: (document) => {
      const built = (document as { openapiObject: OpenApiDocument }).openapiObject;
      const full = describeResponses(hoistNamedSchemas(applyDocumentRules({ ...built, webhooks: webhooksSection(options.webhookEvents) })));
      const { merchant, operations } = splitRootOperations(full);
      // After the split: each document holds the error examples (components.examples) it uses.
      operationsDocuments.set(app, applyResponseExamples(operations));
      return applyResponseExamples(merchant) as never;
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  // The reference tries requests against the origin that serves it, not a local default.
  const transformSpecification = (spec: Readonly<Record<string, unknown>>) => ({ ...spec, servers: sameOriginFirst(spec.servers as Array<{ url: string }>) });
  if (options.docs) await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true }, transformSpecification });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  app.get(OPERATIONS_DOCUMENT_URL, { schema: { hide: true } }, async () => operationsDocument(app));
}

/** Where the document of the operations served at the root (health, readiness, metrics) is served. */
export const OPERATIONS_DOCUMENT_URL = '/openapi.json';

const OPERATIONS_TAG = 'Operations';
const operationsDocuments = new WeakMap<FastifyInstance, OpenApiDocument>();

/** The document of the root operations, split from the merchant document when that one is built. */
export function operationsDocument(app: FastifyInstance): OpenApiDocument {
  app.swagger();
  return operationsDocuments.get(app)!;
}

/**
 * Generators give a client one base URL, the document's first server, and ignore a server named
 * by one operation (hey-api, orval and openapi-fetch all do): documented in the merchant document,
 * /healthz would be called at /api/v1/healthz. So the operations served at the root are a document
 * of their own, whose server is the root, with the schemas they answer; the merchant document
 * holds only /api/v1. The root operations are those of the Operations tag; another route outside
 * /api/v1 (a test's probe) keeps its own server, and test/http/openapi.test.ts allows none in the
 * service's documents.
 */
function splitRootOperations(document: OpenApiDocument): { merchant: OpenApiDocument; operations: OpenApiDocument } {
  const atRoot = (methods: Record<string, { servers?: Array<{ url: string }>; tags?: string[] }>) =>
    Object.values(methods).some((operation) => operation.servers?.[0]?.url === '/' && operation.tags?.includes(OPERATIONS_TAG));
  const entries = Object.entries(document.paths ?? {});
  const rootPaths = Object.fromEntries(
    entries.filter(([, methods]) => atRoot(methods)).map(([path, methods]) => [path, Object.fromEntries(Object.entries(methods).map(([method, { servers: _servers, ...operation }]) => [method, operation]))]),
  );
  const rootTags = new Set(Object.values(rootPaths).flatMap((methods) => Object.values(methods).flatMap((operation) => operation.tags ?? [])));
  const merchantPaths = Object.fromEntries(entries.filter(([, methods]) => !atRoot(methods)));
  const schemas = document.components?.schemas ?? {};
  const { MetricsToken, ...merchantSchemes } = document.components?.securitySchemes ?? {};
  return {
    merchant: {
      ...document,
      tags: document.tags?.filter((tag) => !rootTags.has(tag.name)),
      paths: merchantPaths,
      components: { ...document.components, schemas: schemasUsedBy([merchantPaths, document.webhooks], schemas), securitySchemes: merchantSchemes },
    },
    operations: {
      openapi: document.openapi,
      info: { ...document.info!, title: 'Crypto/BRL Exchange Operations API', description: OPERATIONS_DESCRIPTION },
      servers: serversAt('', '. A process without the api role serves these operations on OPERATIONS_PORT'),
      tags: document.tags?.filter((tag) => rootTags.has(tag.name)),
      security: [],
      paths: rootPaths,
      components: { schemas: schemasUsedBy(rootPaths, schemas), securitySchemes: { MetricsToken: MetricsToken! } },
    },
  };
}

/** The component schemas `node` refers to, directly or through other components, in the components' order. */
function schemasUsedBy(node: unknown, schemas: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      const name = key === '$ref' && typeof inner === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(inner)?.[1] : undefined;
      if (name !== undefined && !used.has(name)) {
        used.add(name);
        visit(schemas[name]);
      } else visit(inner);
    }
  };
  visit(node);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}

const OPERATIONS_DESCRIPTION =
  'The operations the service answers at its root, for probes and monitoring rather than merchants: liveness, readiness and Prometheus metrics. The merchant API is the document at /api/v1/openapi.json (docs/openapi.json).';

/** The operationId and body example from the tables, and the root server for routes outside API_PREFIX. */
function withOperationMetadata(schema: FastifySchema | undefined, url: string, method: string | string[]): FastifySchema {
  const atRoot = !url.startsWith(`${API_PREFIX}/`);
  const relative = atRoot ? url : url.slice(API_PREFIX.length);
  const path = relative.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const operationId = OPERATION_IDS[`${[method].flat()[0]} ${path}`];
  const example = operationId === undefined ? undefined : REQUEST_EXAMPLES[operationId];
  return {
    ...schema,
    ...(operationId ? { operationId } : {}),
    // A copy: the route's own body schema is the validator's and stays as it is.
    ...(schema?.body && example !== undefined ? { body: { ...(schema.body as object), examples: [example] } } : {}),
    ...(atRoot ? { servers: [{ url: '/', description: 'The service root (outside /api/v1)' }] } : {}),
  } as FastifySchema;
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const, minimum: 0 } });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader('Requests allowed in the current window'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window'),
  'RateLimit-Reset': integerHeader('Seconds until the current window resets (IETF RateLimit draft: a delay, not an epoch)'),
  'Retry-After': integerHeader('Seconds to wait before retrying'),
};
const RATE_LIMIT_HEADER_REFS = Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]));

type SchemaObject = { required?: string[]; properties?: Record<string, { default?: unknown }> };
type OpenApiDocument = {
  openapi?: string;
  info?: { title: string; version: string; description?: string };
  servers?: Array<{ url: string; description?: string; variables?: Record<string, unknown> }>;
  tags?: Array<{ name: string; description?: string }>;
  security?: SecurityRequirement[];
  components?: { schemas?: Record<string, Record<string, unknown>>; securitySchemes?: Record<string, unknown>; headers?: unknown; parameters?: unknown; examples?: Record<string, unknown> };
  /** OpenAPI 3.1: the requests the service makes to the merchant's endpoints (openapi-webhooks.ts). */
  webhooks?: Record<string, unknown>;
  paths?: Record<string, Record<string, { servers?: Array<{ url: string }>; tags?: string[]; responses?: Record<string, { headers?: unknown; description?: string; content?: Record<string, { schema?: Record<string, unknown> }> }>; parameters?: Array<{ required?: boolean; in: string; schema?: { default?: unknown } }>; requestBody?: { required?: boolean; content?: Record<string, { schema?: SchemaObject }> } }>>;
};

/**
 * A parameter with a default is optional to the client; so is a body with no required property.
 * Every 429 names the rate-limit headers it carries.
 */
function applyDocumentRules(document: OpenApiDocument): OpenApiDocument {
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      const tooMany = operation.responses?.['429'];
      if (tooMany) tooMany.headers = RATE_LIMIT_HEADER_REFS;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.schema?.default !== undefined) parameter.required = false;
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (operation.requestBody && body?.properties && !body.required?.length) operation.requestBody.required = false;
    }
  }
  return document;
}
