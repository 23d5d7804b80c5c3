/**
 * The OpenAPI 3.1 document, generated from the routes' TypeBox schemas, served at
 * /api/v1/openapi.json, with an interactive reference at /docs.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const API_PREFIX = '/api/v1';

type SecurityRequirement = Record<string, string[]>;

/** Merchant routes accept either alternative (spec, Authentication §1). */
export const MERCHANT_SECURITY: SecurityRequirement[] = [{ ApiKey: [], ApiSecret: [] }, { BearerAuth: [] }];
export const ADMIN_SECURITY: SecurityRequirement[] = [{ AdminToken: [] }];

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
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
        ].join('\n'),
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Public key id (mk_...); send together with x-api-secret' },
          ApiSecret: { type: 'apiKey', in: 'header', name: 'x-api-secret', description: 'API secret (sk_...), shown once at creation' },
          BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /api/v1/auth/token (15 minutes)' },
          AdminToken: { type: 'http', scheme: 'bearer', description: 'Operator token (ADMIN_TOKEN), for /api/v1/admin routes only' },
        },
      },
      security: MERCHANT_SECURITY,
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}
