/**
 * The OpenAPI 3.1 document, generated from the routes' TypeBox schemas, served at
 * /api/v1/openapi.json, with an interactive reference at /docs (DOCS_ENABLED: off in production
 * unless enabled, since it serves a browser application and its assets from the API's origin).
 *
 * The server URL is /api/v1 and paths are relative to it (the spec's `{base_url}` already ends
 * with /api/v1); the operations served at the root (/healthz, /readyz, /metrics) name their own
 * server `/`. operationIds and tags come from openapi-operations.ts, body examples from
 * openapi-examples.ts. Three rules are applied to the whole document rather than to each route
 * (applyDocumentRules): a parameter with a default is not required (the client may leave it out),
 * a body whose every property is optional is not required either (json-body.ts reads no body, or
 * an empty one, as `{}`), and every 429 lists the RateLimit headers it carries.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { REQUEST_EXAMPLES } from './openapi-examples.ts';
import { OPERATION_IDS, TAGS } from './openapi-operations.ts';

export const API_PREFIX = '/api/v1';

type SecurityRequirement = Record<string, string[]>;

/** Merchant routes accept either alternative (spec, Authentication §1). */
export const MERCHANT_SECURITY: SecurityRequirement[] = [{ ApiKey: [], ApiSecret: [] }, { BearerAuth: [] }];
export const ADMIN_SECURITY: SecurityRequirement[] = [{ AdminToken: [] }];

export async function registerOpenApi(app: FastifyInstance, options: { docs: boolean }): Promise<void> {
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
      servers: [{ url: API_PREFIX, description: 'This service; every path below is relative to it' }],
      tags: [...TAGS],
      components: {
        headers: RATE_LIMIT_HEADERS,
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Public key id (mk_...); send together with x-api-secret' },
          ApiSecret: { type: 'apiKey', in: 'header', name: 'x-api-secret', description: 'API secret (sk_...), shown once at creation' },
          BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /api/v1/auth/token (15 minutes)' },
          AdminToken: { type: 'http', scheme: 'bearer', description: 'Operator token (ADMIN_TOKEN), for /api/v1/admin routes only' },
          MetricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for GET /metrics only' },
        },
      },
      security: MERCHANT_SECURITY,
    },
    transform: ({ schema, url, route }) => ({ url, schema: withOperationMetadata(schema, url, route.method) }),
    transformObject: (document) => applyDocumentRules((document as { openapiObject: OpenApiDocument }).openapiObject) as never,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  if (options.docs) await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}

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
  paths?: Record<string, Record<string, { responses?: Record<string, { headers?: unknown }>; parameters?: Array<{ required?: boolean; in: string; schema?: { default?: unknown } }>; requestBody?: { required?: boolean; content?: Record<string, { schema?: SchemaObject }> } }>>;
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
