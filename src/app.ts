/**
 * buildApp(deps): the whole HTTP API from explicit dependencies. main.ts listens with it;
 * tests call it directly. Every mounted module is listed below, in its guard's scope.
 */
import rateLimit from '@fastify/rate-limit';
import { Format, registerAjvFormats, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerFactory, LogController } from 'fastify';
import type { Db } from './db/database.ts';
import { requireMerchant, requireOperator } from './http/auth.ts';
import { createAuthFailureLimiter } from './http/auth-failures.ts';
import { registerDashboard } from './http/dashboard.ts';
import { registerErrorHandling, sendError, toAppError } from './http/error-handler.ts';
import { AppError } from './errors.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { SERVER_TIMEOUTS } from './http/early-server.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { createMetrics, instrumentHttp, type Metrics } from './http/metrics.ts';
import { registerDependencyMetrics } from './http/dependency-metrics.ts';
import { refusedOrderTypes } from './modules/orders/creation/dependency-gate.ts';
import { ADMIN_SECURITY, API_PREFIX, MERCHANT_SECURITY, registerOpenApi } from './http/openapi.ts';
import { requestIdFor } from './http/request-id.ts';
import { touchedByPath } from './http/request-log.ts';
import { setSecurityHeaders } from './http/security-headers.ts';
import { ErrorObject, documentBodyErrors, documentErrors } from './http/schemas.ts';
import type { App } from './http/types.ts';
import { buildSerializer } from './http/serializer.ts';
import { validatorCompiler } from './http/validator.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { UUID_PATTERN } from './lib/ids.ts';
import { createLogger } from './logger.ts';
import { registerAdminPoliciesRoutes } from './modules/admin/policies-routes.ts';
import { registerWalletOwnershipRoutes } from './modules/wallet-ownership/routes.ts';
import { registerAdminMerchantRoutes } from './modules/admin/routes.ts';
import { registerAdminMerchantReadRoutes } from './modules/admin/merchant-reads-routes.ts';
import { registerAdminAuditRoutes } from './modules/audit/admin-routes.ts';
import { registerOperationsReportRoutes } from './modules/operations-register/routes.ts';
import { registerAuthRoutes } from './modules/auth/routes.ts';
import { registerAdminFeeTierRoutes, registerFeeTierRoutes } from './modules/fee-tiers/routes.ts';
import { registerMarkupRoutes } from './modules/markups/routes.ts';
import { registerStandingChargeRoutes } from './modules/standing-charges/routes.ts';
import { registerSandboxStandingAddressRoutes, registerStandingAddressRoutes, registerStandingDepositRoutes } from './modules/standing-addresses/routes.ts';
import { registerStandingChargeSandboxRoutes } from './modules/standing-charges/sandbox-routes.ts';
import { registerHealthRoutes } from './modules/health/routes.ts';
import { registerAdminLedgerRoutes, registerLedgerRoutes, registerSandboxLedgerRoutes } from './modules/ledger/routes.ts';
import { registerCredentialRoutes } from './modules/merchants/credential-routes.ts';
import { registerMerchantRoutes } from './modules/merchants/routes.ts';
import { registerMerchantPoliciesRoutes } from './modules/merchants/policies-routes.ts';
import { registerAdminOrderRoutes } from './modules/orders/operator/admin-routes.ts';
import { registerPixProviderRoutes } from './modules/orders/psp/pix-provider-routes.ts';
import { registerOrderReportRoutes } from './modules/orders/reads/report-routes.ts';
import { registerOrderRoutes } from './modules/orders/routes.ts';
import { registerPayoutBatchRoutes, registerSandboxPayoutBatchRoutes } from './modules/payout-batches/routes.ts';
import { registerOrderStatusMetrics } from './modules/orders/reads/status-metrics.ts';
import { registerStuckOrderMetrics } from './modules/orders/operator/stuck-metrics.ts';
import { registerDisputeMetrics } from './modules/disputes/metrics.ts';
import { registerSweepMetrics } from './modules/deposits/metrics.ts';
import { registerPriceMetrics } from './modules/quotes/price-metrics.ts';
import { registerOverviewRoutes } from './modules/overview/routes.ts';
import { registerQuoteRoutes } from './modules/quotes/routes.ts';
import { registerAdminReceiverRoutes } from './modules/receivers/admin-routes.ts';
import { registerReceiverRoutes } from './modules/receivers/routes.ts';
import { registerSandboxRoutes } from './modules/sandbox/routes.ts';
import { registerAdminTreasuryRoutes } from './modules/treasury/routes.ts';
import { registerAdminWebhookRoutes } from './modules/webhooks/admin-routes.ts';
import { registerWebhookRoutes } from './modules/webhooks/routes.ts';
import { enforceSessionRole } from './modules/users/guard.ts';
import { auditAdminTokenUse, enforceOperatorRole } from './modules/operators/guard.ts';
import { registerOperatorInvitationRoute, registerOperatorRoutes, registerOperatorSignInRoute } from './modules/operators/routes.ts';
import { registerServiceAccountRoutes } from './modules/operators/service-account-routes.ts';
import { registerApprovalRoutes } from './modules/approvals/routes.ts';
import { registerSettlementKeyProposalRoutes } from './modules/approvals/settlement-key-routes.ts';
import { registerAdminSettlementPayoutRoutes, registerSettlementPixKeyRoutes } from './modules/settlement-payouts/routes.ts';
import { enforceKeyScope } from './modules/merchants/scope-guard.ts';
import { registerAuditLogRoutes } from './modules/users/audit-log-routes.ts';
import { registerLinkRoutes, registerSignedInLinkRoutes } from './modules/users/links-routes.ts';
import { registerSessionRoutes, registerSignInRoute, registerUserRoutes } from './modules/users/routes.ts';
import { registerFeePayerRoute, registerWalletRoutes, registerWalletSandboxRoutes } from './modules/wallets/routes.ts';
import type { LiteSvmSandbox } from './adapters/chain/litesvm-sandbox.ts';
import type { RuntimeConfig } from './runtime-config.ts';
import { createServices, type Services } from './services.ts';
import { registerDisputeRoutes } from './modules/disputes/routes.ts';
import { registerAdminDisputeRoutes } from './modules/disputes/admin-routes.ts';
import { registerSandboxDisputeRoutes } from './modules/disputes/sandbox-routes.ts';

export interface AppDeps {
  config: RuntimeConfig;
  db: Db;
  logger?: FastifyBaseLogger;
  clock?: Clock;
  metrics?: Metrics;
  /** Built from config and db when not given (main.ts shares its own with the worker). */
  services?: Services;
  /** main.ts binds the port before the database is ready and hands its server over here. */
  serverFactory?: FastifyServerFactory;
  /** A worker-only process (OPERATIONS_PORT): /healthz, /readyz and /metrics, and no other route. */
  operationsOnly?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

registerAjvFormats();
// ajv-formats' uuid also accepts a `urn:uuid:` prefix, which PostgreSQL then refuses (a 500
// instead of a 400): ids are the bare 8-4-4-4-12 form only.
Format.Set('uuid', (value) => UUID_PATTERN.test(value));
// RFC 3339 allows a leap second (:60), which JavaScript dates cannot represent.
const isRfc3339DateTime = Format.Get('date-time')!;
Format.Set('date-time', (value) => isRfc3339DateTime(value) && Number.isFinite(Date.parse(value)));

/** The request's one log line: what was asked, by whom, about which order (request-log.ts), the answer and how long it took. */
async function logRequestCompletion(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const route = request.routeOptions.url ?? request.url.split('?')[0]!;
  request.log.info(
    {
      method: request.method,
      route,
      statusCode: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      ...(request.merchantAuth ? { merchantId: request.merchantAuth.merchantId } : {}),
      ...touchedByPath(route, request.params),
    },
    'request completed',
  );
}

/** The `hops` nearest addresses (the socket's peer, then X-Forwarded-For from its right end) are proxies. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const metrics = deps.metrics ?? createMetrics();
  const logger = deps.logger ?? createLogger(config.logLevel);
  const services = deps.services ?? (await createServices({ config, db, clock, log: logger, emailLog: logger }));

  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdFor,
    // One line per request, written at completion by logRequestCompletion (not Fastify's two).
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    // A hop count as a function: Fastify 5.12 reads a bare number as "trust no one" (a direct
    // client could claim hops); README's TRUST_PROXY row says when a count is safe.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Slow clients must not hold sockets forever.
    ...SERVER_TIMEOUTS,
    ...(deps.serverFactory ? { serverFactory: deps.serverFactory } : {}),
    return503OnClosing: true,
    // Errors Fastify raises before routing (a malformed URL, a bad Content-Type header) get the
    // Error object too, with the request id, instead of Fastify's own shape.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', reply.request.id);
      setSecurityHeaders(request, reply);
      return sendError(reply, toAppError(error));
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerJsonBodyParser(app);
  app.decorate('services', services);
  // The chain websocket, if a pending transfer opened it: closed with the app (tests build one app per file).
  app.addHook('onClose', async () => services.signatureSubscriptions?.close());
  app.decorateRequest('merchantAuth', null);
  app.decorateRequest('operatorAuth', null);
  app.addSchema(ErrorObject);
  app.addHook('onRoute', documentBodyErrors);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    setSecurityHeaders(request, reply);
  });
  app.addHook('onResponse', logRequestCompletion);
  registerErrorHandling(app);
  instrumentHttp(app, metrics);
  registerOrderStatusMetrics(metrics.registry, db);
  registerDependencyMetrics(metrics.registry, services.dependencyHealth);
  // What pages people at night, read at scrape (docs/operations/alerts.md).
  registerStuckOrderMetrics(metrics.registry, db, services.clock, config.orders.stuckOrderMinutes);
  registerDisputeMetrics(metrics.registry, db, services.clock);
  registerPriceMetrics(metrics.registry, services.adapters.prices, config.prices.maxAgeMs, services.clock);
  if (services.sweeper) registerSweepMetrics(metrics.registry, db, services.clock);
  if (!deps.operationsOnly) await registerOpenApi(app, { docs: config.docsEnabled, webhookEvents: services.webhooks.catalog().data });
  await app.register(rateLimit, {
    global: false,
    // RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds until the window resets)
    // per the IETF RateLimit header draft, instead of the x-ratelimit-* trio whose reset clients
    // read as an epoch (GitHub's) while it was seconds remaining. Retry-After on a 429.
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests; retry in ${context.after}`, { retryAfterSeconds: Math.ceil(context.ttl / 1000) }),
  });

  const authFailures = createAuthFailureLimiter({ maxPerMinute: config.rateLimit.authFailuresPerIpPerMinute });
  const metricsAccess = config.metricsToken ? { token: config.metricsToken } : config.nodeEnv === 'production' ? 'closed' : 'open';
  const health = services.dependencyHealth;
  registerHealthRoutes(app, { health, ordersRefused: () => refusedOrderTypes(health.state), metrics, metricsAccess, simulation: config.simulationMode });
  if (deps.operationsOnly) return app;
  await registerDashboard(app, { dir: config.dashboardDir });

  await app.register(
    async (api: App) => {
      registerAuthRoutes(api, services.auth, { tokenRateLimitPerMinute: config.rateLimit.tokenPerIpPerMinute, failures: authFailures });
      registerSignInRoute(api, services.users, { nodeEnv: config.nodeEnv, failures: authFailures, rateLimitPerMinute: config.rateLimit.tokenPerIpPerMinute });
      registerLinkRoutes(api, services.users, { rateLimitPerMinute: config.rateLimit.tokenPerIpPerMinute });
      registerFeePayerRoute(api, services.wallets);
      if (config.apiPix) {
        registerPixProviderRoutes(api, {
          notifications: services.orderNotifications,
          confirmation: services.pixConfirmation,
          settings: config.apiPix,
        });
      }

      await api.register(async (merchantScope: App) => {
        merchantScope.addHook('onRoute', (route) => {
          route.schema = { ...route.schema, security: route.schema?.security ?? MERCHANT_SECURITY };
        });
        merchantScope.addHook('onRequest', requireMerchant(services.auth, authFailures));
        merchantScope.addHook('onRequest', enforceSessionRole);
        merchantScope.addHook('onRequest', enforceKeyScope);
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
        registerIdempotency(merchantScope, services.idempotency);
        registerMerchantRoutes(merchantScope, services.merchants, { sandbox: config.sandboxEnabled, chains: [...config.orders.chains], tokens: Object.keys(config.orders.tokens) });
        registerMerchantPoliciesRoutes(merchantScope, services.merchantPolicies);
        registerCredentialRoutes(merchantScope, services.merchants);
        registerSessionRoutes(merchantScope, services.users, { nodeEnv: config.nodeEnv });
        registerUserRoutes(merchantScope, services.users);
        registerSignedInLinkRoutes(merchantScope, services.users);
        registerAuditLogRoutes(merchantScope, { db, personalData: services.personalData });
        registerReceiverRoutes(merchantScope, services.receivers);
        registerStandingChargeRoutes(merchantScope, services.standingCharges);
        registerStandingAddressRoutes(merchantScope, services.standingAddresses);
        registerStandingDepositRoutes(merchantScope, services.standingAddresses);
        registerWalletOwnershipRoutes(merchantScope, services.walletOwnership);
        registerQuoteRoutes(merchantScope, services.quotes);
        registerOrderReportRoutes(merchantScope, services.orderExport, services.orderTimeline);
        registerOrderRoutes(merchantScope, services.orders, services.orderListing);
        registerPayoutBatchRoutes(merchantScope, services.payoutBatches.batches);
        registerOverviewRoutes(merchantScope, services.overview);
        registerLedgerRoutes(merchantScope, services.ledger);
        registerSettlementPixKeyRoutes(merchantScope, services.settlementPixKeys);
        registerDisputeRoutes(merchantScope, services.disputes);
        if (config.sandboxEnabled) {
          registerSandboxRoutes(merchantScope, services);
          registerSandboxLedgerRoutes(merchantScope, services.ledger, clock.now);
          registerSandboxDisputeRoutes(merchantScope, { disputes: services.disputes, pix: services.adapters.sandbox.pix, orders: services.orders });
          registerStandingChargeSandboxRoutes(merchantScope, {
            charges: services.standingCharges,
            pix: services.adapters.sandbox.pix,
            notifications: services.orderNotifications,
            orders: services.orders,
            receivers: services.receivers,
          });
          registerSandboxPayoutBatchRoutes(merchantScope, services.payoutBatches.batches, services.payoutBatches.funding, services.adapters.sandbox.chain);
          registerSandboxStandingAddressRoutes(merchantScope, services.standingAddresses, services.standingDeposits, services.adapters.sandbox.chain);
        }
        registerFeeTierRoutes(merchantScope, services.feeTiers);
        registerMarkupRoutes(merchantScope, services.markups);
        registerWebhookRoutes(merchantScope, services.webhooks);
        registerWalletRoutes(merchantScope, services.wallets, { signRateLimitPerMinute: config.wallets.signRateLimitPerMinute });
        const walletChain = services.wallets.chain;
        if (config.sandboxEnabled && walletChain.kind === 'litesvm') registerWalletSandboxRoutes(merchantScope, walletChain as LiteSvmSandbox);
      });

      registerOperatorSignInRoute(api, services.operators, { nodeEnv: config.nodeEnv, failures: authFailures, rateLimitPerMinute: config.rateLimit.tokenPerIpPerMinute });
      registerOperatorInvitationRoute(api, services.operators, { rateLimitPerMinute: config.rateLimit.tokenPerIpPerMinute });
      // Always mounted: operators sign in without the admin token, which is only for bootstrap and automation.
      await api.register(async (adminScope: App) => {
        adminScope.addHook('onRoute', (route) => {
          route.schema = { ...route.schema, security: ADMIN_SECURITY };
          documentErrors(route, [429]);
        });
        adminScope.addHook('onRequest', requireOperator(services.auth, authFailures));
        adminScope.addHook('onRequest', enforceOperatorRole(services.operators.bootstrap));
        adminScope.addHook('onSend', auditAdminTokenUse(db));
        registerIdempotency(adminScope, services.idempotency);
        registerOperatorRoutes(adminScope, services.operators, { nodeEnv: config.nodeEnv });
        registerServiceAccountRoutes(adminScope, services.operators);
        registerAdminMerchantRoutes(adminScope, services.merchants);
        registerAdminPoliciesRoutes(adminScope, services.merchantPolicies);
        registerAdminMerchantReadRoutes(adminScope, services.operatorReads.merchantReads);
        registerAdminReceiverRoutes(adminScope, services.receivers, services.operatorReads.kycReview);
        registerAdminAuditRoutes(adminScope, { db, personalData: services.personalData, exporter: services.operatorReads.auditExport });
        registerOperationsReportRoutes(adminScope, services.operatorReads.operationsReport);
        registerAdminFeeTierRoutes(adminScope, services.feeTiers);
        registerAdminLedgerRoutes(adminScope, services.ledger, clock.now);
        registerAdminTreasuryRoutes(adminScope, services.treasury);
        registerAdminOrderRoutes(adminScope, services.adminOrders, services.reconciliation);
        registerApprovalRoutes(adminScope, services.approvals, services.orderOperatorActions);
        registerSettlementKeyProposalRoutes(adminScope, { approvals: services.approvals, keys: services.settlementPixKeys });
        registerAdminSettlementPayoutRoutes(adminScope, { db, keys: services.settlementPixKeys });
        registerAdminWebhookRoutes(adminScope, services.webhookHealth);
        registerAdminDisputeRoutes(adminScope, services.disputes);
      });
    },
    { prefix: API_PREFIX },
  );

  return app;
}
