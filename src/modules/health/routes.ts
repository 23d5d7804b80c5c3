import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Metrics } from '../../http/metrics.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';

const tags = ['Operations'];

export function registerHealthRoutes(app: App, deps: { db: Db; metrics: Metrics }): void {
  app.get(
    '/healthz',
    {
      schema: { tags, summary: 'Liveness: the process is up', security: [], response: { 200: Type.Object({ status: Type.Literal('ok') }), ...errorResponses() } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'Readiness: the database answers',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ready') }), ...errorResponses(503) },
      },
    },
    async (request) => {
      try {
        await sql`select 1`.execute(deps.db);
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        throw new AppError('SERVICE_UNAVAILABLE', 'Database is not reachable');
      }
      return { status: 'ready' as const };
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        tags,
        summary: 'Prometheus metrics (text exposition format)',
        security: [],
        response: { 200: { description: 'Prometheus text format', content: { 'text/plain': { schema: Type.String() } } }, ...errorResponses() },
      },
    },
    async (_request, reply) => {
      reply.type(deps.metrics.registry.contentType);
      return deps.metrics.registry.metrics();
    },
  );
}
