/**
 * Headers on every answer. `Cache-Control: no-store`: answers carry secrets (an API secret at
 * creation, a webhook signing secret, a bearer token) and account data no shared cache or browser
 * should keep; a route that means to be cached says so itself (the public JWKS). `nosniff`: a
 * browser never reads a JSON answer as something else. HSTS only on a request that arrived over
 * https: the service does not terminate TLS itself, so behind a proxy it knows that only from a
 * trusted proxy's X-Forwarded-Proto (TRUST_PROXY); the TLS edge sets HSTS otherwise (README).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const ALWAYS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

/** One year, the preload lists' minimum; subdomains are the edge's decision. */
const HSTS = 'max-age=31536000';

export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(ALWAYS);
  if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
}
