import { Type } from 'typebox';
import type { AuthFailureLimiter } from '../../http/auth-failures.ts';
import { BODY_ERRORS, StrictObject, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { AuthService } from './service.ts';

export function registerAuthRoutes(app: App, auth: AuthService, options: { tokenRateLimitPerMinute: number; failures: AuthFailureLimiter }): void {
  app.post(
    '/auth/token',
    {
      config: options.tokenRateLimitPerMinute > 0 ? { rateLimit: { max: options.tokenRateLimitPerMinute, timeWindow: 60_000 } } : {},
      // An address over its failed-authentication limit is refused before its body is read.
      onRequest: async (request, reply) => options.failures.refuseWhileBlocked(request.ip, reply),
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange an API key and secret for a short-lived bearer token',
        description:
          'Answers an EdDSA-signed JWT valid for 15 minutes (`sub` = merchant id). Send it as `Authorization: Bearer <token>`; verify it with the keys at `/.well-known/jwks.json`. Rate-limited per client IP; failed attempts, here and on every authenticated route, are limited per client IP too (429 before any lookup).',
        security: [],
        body: StrictObject({
          apiKey: Type.String({ minLength: 1, maxLength: 200 }),
          apiSecret: Type.String({ minLength: 1, maxLength: 200 }),
        }, { title: 'CreateAccessTokenRequest' }),
        response: {
          200: Type.Object({
            accessToken: Type.String(),
            tokenType: Type.Literal('Bearer'),
            expiresIn: Type.Integer({ description: 'Seconds until the token expires' }),
          }, { title: 'AccessToken' }),
          ...errorResponses(...BODY_ERRORS, 401, 403, 429),
        },
      },
    },
    async (request) => options.failures.counting(request.ip, () => auth.issueToken(request.body.apiKey, request.body.apiSecret, request.ip)),
  );

  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['Authentication'],
        summary: 'Public keys that verify access tokens (JWKS)',
        security: [],
        response: {
          200: Type.Object({
            keys: Type.Array(
              Type.Object({
                kty: Type.String(),
                crv: Type.String(),
                x: Type.String(),
                kid: Type.String(),
                alg: Type.String(),
                use: Type.String(),
              }, { title: 'JsonWebKey' }),
            ),
          }, { title: 'JsonWebKeySet' }),
          ...errorResponses(),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return auth.jwks();
    },
  );
}
