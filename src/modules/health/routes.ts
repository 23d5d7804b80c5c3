import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Metrics } from '../../http/metrics.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';

const tags = ['Operations'];

/**
 * Who may read /metrics: the holders of a bearer token (METRICS_TOKEN), anyone (development and
 * test without a token), or no one (production without a token: the figures describe traffic and
 * internals an outsider should not see, so an unconfigured production service keeps them closed).
 */
export type MetricsAccess = { token: string } | 'open' | 'closed';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

function metricsGuard(access: MetricsAccess): (authorization: string | undefined) => boolean {
  if (access === 'open') return () => true;
  if (access === 'closed') return () => false;
  const expected = sha256(access.token);
  return (authorization) => {
    const presented = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    return presented !== undefined && timingSafeEqual(sha256(presented), expected);
  };
}

/**
 * `simulation`: SIMULATION_MODE is declared (no real money moves), so a deployment on production
 * code paths shows it to whoever watches its readiness.
 */
export function registerHealthRoutes(app: App, deps: { db: Db; metrics: Metrics; metricsAccess: MetricsAccess; simulation: boolean }): void {
  const mayReadMetrics = metricsGuard(deps.metricsAccess);
  app.get(
    '/healthz',
    {
      schema: { tags, summary: 'Liveness: the process is up', security: [], response: { 200: Type.Object({ status: Type.Literal('ok') }, { title: 'Liveness' }), ...errorResponses() } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'Readiness: the database answers',
        description: '`simulation` is true when the deployment declares everything simulated (SIMULATION_MODE=true): no real PIX, chain transfer or price.',
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('ready'), simulation: Type.Boolean({ description: 'SIMULATION_MODE=true: every PSP, chain and price is simulated' }) }, { title: 'Readiness' }),
          ...errorResponses(503),
        },
      },
    },
    async (request) => {
      try {
        await sql`select 1`.execute(deps.db);
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        throw new AppError('SERVICE_UNAVAILABLE', 'Database is not reachable');
      }
      return { status: 'ready' as const, simulation: deps.simulation };
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        tags,
        summary: 'Prometheus metrics (text exposition format)',
        description:
          'With METRICS_TOKEN set, requires `Authorization: Bearer <METRICS_TOKEN>`. Without it, open in development and test, and closed (always 401) in production.',
        // The empty alternative: without METRICS_TOKEN, outside production, the route asks for nothing.
        security: [{ MetricsToken: [] }, {}],
        response: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: Type.String() } } }, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      if (!mayReadMetrics(request.headers.authorization)) {
        throw new AppError('UNAUTHORIZED', '/metrics requires Authorization: Bearer <METRICS_TOKEN> (in production it is closed until METRICS_TOKEN is set)');
      }
      reply.type(deps.metrics.registry.contentType);
      return deps.metrics.registry.metrics();
    },
  );
}
