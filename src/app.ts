/**
 * buildApp(deps): the whole HTTP API from explicit dependencies. main.ts listens with it;
 * tests call it directly. Every mounted module is listed below, in its guard's scope.
 */
import rateLimit from '@fastify/rate-limit';
import { TypeBoxValidatorCompiler, registerAjvFormats, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import type { Db } from './db/database.ts';
import { requireAdmin, requireMerchant } from './http/auth.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { AppError } from './http/errors.ts';
import { createMetrics, instrumentHttp, type Metrics } from './http/metrics.ts';
import { ADMIN_SECURITY, API_PREFIX, MERCHANT_SECURITY, registerOpenApi } from './http/openapi.ts';
import { requestIdFor } from './http/request-id.ts';
import { ErrorObject } from './http/schemas.ts';
import type { App } from './http/types.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createLogger } from './logger.ts';
import { registerAdminMerchantRoutes } from './modules/admin/routes.ts';
import { registerAuthRoutes } from './modules/auth/routes.ts';
import { registerHealthRoutes } from './modules/health/routes.ts';
import { registerMerchantRoutes } from './modules/merchants/routes.ts';
import type { RuntimeConfig } from './runtime-config.ts';
import { createServices, type Services } from './services.ts';

export interface AppDeps {
  config: RuntimeConfig;
  db: Db;
  logger?: FastifyBaseLogger;
  clock?: Clock;
  metrics?: Metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

registerAjvFormats();

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const metrics = deps.metrics ?? createMetrics();
  const services = await createServices({ config, db, clock });

  const app = Fastify({
    loggerInstance: deps.logger ?? createLogger(config.logLevel),
    genReqId: requestIdFor,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // Slow clients must not hold sockets forever.
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // TypeBox's compiled checker: no type coercion of bodies (a "10" is not a number), while
  // querystring and path values are converted from text as they must be.
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  app.decorate('services', services);
  app.decorateRequest('merchantAuth', null);
  app.addSchema(ErrorObject);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  instrumentHttp(app, metrics);
  await registerOpenApi(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests; retry in ${context.after}`, { retryAfterSeconds: Math.ceil(context.ttl / 1000) }),
  });

  registerHealthRoutes(app, { db, metrics });

  await app.register(
    async (api: App) => {
      registerAuthRoutes(api, services.auth, { tokenRateLimitPerMinute: config.rateLimit.tokenPerIpPerMinute });

      await api.register(async (merchantScope: App) => {
        merchantScope.addHook('onRoute', (route) => {
          route.schema = { ...route.schema, security: route.schema?.security ?? MERCHANT_SECURITY };
        });
        merchantScope.addHook('onRequest', requireMerchant(services.auth));
        if (config.rateLimit.perCredentialPerMinute > 0) {
          merchantScope.addHook(
            'preHandler',
            merchantScope.rateLimit({
              max: config.rateLimit.perCredentialPerMinute,
              timeWindow: 60_000,
              keyGenerator: (request) => `credential:${request.merchantAuth?.credentialId}`,
            }),
          );
        }
        registerMerchantRoutes(merchantScope, services.merchants);
      });

      if (config.adminToken) {
        await api.register(async (adminScope: App) => {
          adminScope.addHook('onRoute', (route) => {
            route.schema = { ...route.schema, security: ADMIN_SECURITY };
          });
          adminScope.addHook('onRequest', requireAdmin(services.auth));
          registerAdminMerchantRoutes(adminScope, services.merchants);
        });
      }
    },
    { prefix: API_PREFIX },
  );

  return app;
}
