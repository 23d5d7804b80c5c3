import { createHash, timingSafeEqual } from 'node:crypto';
import { type Static, Type } from 'typebox';
import { AppError } from '../../errors.ts';
import type { Metrics } from '../../http/metrics.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { OrderType } from '../../lib/order-types.ts';
import type { DependencyHealth } from '../../platform/dependency-health.ts';
import { READINESS_DESCRIPTION, Readiness } from './readiness-schema.ts';

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

/** How long /readyz waits for the probes it starts; a slower one answers the next call (a probe never holds a load balancer's check). */
const READINESS_PROBE_WAIT_MS = 1000;

export interface HealthDeps {
  /** The dependencies' health (platform/dependency-health.ts): its database probe is readiness's `select 1`. */
  health: Pick<DependencyHealth, 'probe' | 'probeStale' | 'report'>;
  /** The order types refused now for a dependency down (orders/creation/dependency-gate.ts). */
  ordersRefused: () => OrderType[];
  metrics: Metrics;
  metricsAccess: MetricsAccess;
  /**
   * SIMULATION_MODE is declared (no real money moves), so a deployment on production code paths
   * shows it to whoever watches its readiness.
   */
  simulation: boolean;
}

export function registerHealthRoutes(app: App, deps: HealthDeps): void {
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
        summary: 'Readiness: the database answers; the state of every dependency',
        description: READINESS_DESCRIPTION,
        security: [],
        response: { 200: Readiness, ...errorResponses(503) },
      },
    },
    async (request) => {
      // The database now, and a probe of each dependency nothing called lately (waited for briefly).
      const [database] = await Promise.all([deps.health.probe('database'), deps.health.probeStale({ waitMs: READINESS_PROBE_WAIT_MS })]);
      if (!database.up) {
        request.log.warn({ err: database.error }, 'readiness check failed');
        throw new AppError('SERVICE_UNAVAILABLE', 'Database is not reachable');
      }
      const dependencies = Object.fromEntries(
        Object.entries(deps.health.report()).map(([name, { lastSuccessAt, lastFailureAt, ...status }]) => [
          name,
          { ...status, lastSuccessAt: lastSuccessAt?.toISOString() ?? null, lastFailureAt: lastFailureAt?.toISOString() ?? null },
        ]),
      ) as Static<typeof Readiness>['dependencies'];
      const degraded = Object.values(dependencies).some((dependency) => dependency.state !== 'ok');
      return { status: degraded ? ('degraded' as const) : ('ready' as const), simulation: deps.simulation, dependencies, ordersRefused: deps.ordersRefused() };
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
