/**
 * Entry point: read the configuration, bind the HTTP port (api role; it answers 503 until the
 * app is ready, so a port in use is found at once), open and migrate the database, start the
 * roles it names (api, worker, or both), and close everything in order on SIGTERM or SIGINT.
 * Known start-up failures print one line naming the fix (src/startup-failure.ts).
 */
import { checkMintsOnNode } from './adapters/chain/solana-mints.ts';
import { buildApp } from './app.ts';
import { generatePassword } from './modules/users/passwords.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createInProcessNotifications, createPostgresNotifications } from './platform/notifications.ts';
import { openDatabase } from './db/database.ts';
import { createReadRouter } from './db/read-router.ts';
import { openConfiguredDatabase } from './db/open-configured.ts';
import { createMetrics } from './http/metrics.ts';
import type { Logger } from 'pino';
import { createLogger } from './logger.ts';
import { seedDemoMerchant } from './modules/merchants/demo-merchant.ts';
import { systemClock } from './lib/clock.ts';
import { resolveRuntimeConfig } from './runtime-config.ts';
import { createServices, type Services } from './services.ts';
import { createWorkerJobs } from './jobs.ts';
import { startWorker } from './platform/worker.ts';
import { startWorkerPresence } from './platform/worker-presence.ts';
import { listenEarly } from './http/early-server.ts';
import { explainStartupFailure, type StartupSettings } from './startup-failure.ts';

const SHUTDOWN_GRACE_MS = 10_000;
/** How often the read replica's lag is measured (db/read-router.ts): part of the freshness bound. */
const READ_REPLICA_PROBE_MS = 500;

/**
 * Test-only switches, honoured only with NODE_ENV=test (never in development or production):
 * TEST_KILL_WORKER_AFTER_TRANSFER_STORED=true makes the process SIGKILL itself once a PAYIN's
 * signed transfer is committed, before its first send: the "kill -9 between signing and sending"
 * of test/e2e/chain-worker-kill.test.ts, at exactly that point; `batch`: once a batch of several
 * orders' transfers is committed (decision 0053). TEST_HOLD_ORDER_STEPS=true holds
 * the orders whose externalId asks for it where they are (modules/orders/lifecycle/test-hold.ts):
 * the every-route crawl's orders mid-processing.
 */
function testOnlyHooks(nodeEnv: string): { afterTransferStored?: (stored: { orders: number }) => void; holdOrders?: true } {
  if (nodeEnv !== 'test') return {};
  const when = process.env.TEST_KILL_WORKER_AFTER_TRANSFER_STORED;
  return {
    // `batch`: only once a transaction of several orders is stored (test/e2e/chain-worker-kill-batch.test.ts).
    ...(when === 'true' || when === 'batch' ? { afterTransferStored: ({ orders }: { orders: number }) => (when === 'true' || orders > 1 ? process.kill(process.pid, 'SIGKILL') : undefined) } : {}),
    ...(process.env.TEST_HOLD_ORDER_STEPS === 'true' ? { holdOrders: true as const } : {}),
  };
}

/** Known once the configuration is read: what a start-up failure message names. */
let startupSettings: StartupSettings | undefined;

async function main(): Promise<void> {
  let baseConfig;
  try {
    baseConfig = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  startupSettings = baseConfig;
  const log = createLogger(baseConfig.logLevel);
  if (baseConfig.simulationMode) {
    log.warn({ nodeEnv: baseConfig.nodeEnv }, 'SIMULATION_MODE=true: the PSP, the chain and the price are all simulated; no real money moves (GET /readyz shows "simulation": true)');
  }
  // A worker-only process listens only when given OPERATIONS_PORT, for its health and metrics.
  const servesApi = baseConfig.roles.includes('api');
  const listenPort = servesApi ? baseConfig.port : baseConfig.operationsPort;
  const early = listenPort !== undefined ? await listenEarly(baseConfig.host, listenPort) : undefined;
  const { config, usedDevSecrets } = await resolveRuntimeConfig(baseConfig);
  if (usedDevSecrets) {
    log.warn({ dataDir: config.dataDir }, 'JWT_PRIVATE_KEY, API_SECRET_PEPPER, WEBHOOK_SECRET_KEY or WALLET_KEK unset: using development keys from DATA_DIR/dev-secrets.json (for development only)');
  }

  // A configured mint the platform will not move (docs/decisions/0043-token-2022-extensions.md) stops the start.
  const { chain } = config;
  if (chain.provider === 'solana-rpc' && chain.rpcUrl) {
    const { unreachable } = await checkMintsOnNode({ rpcUrl: chain.rpcUrl, commitment: chain.commitment, tokenMints: chain.tokenMints }, config.orders.tokens);
    if (unreachable.length > 0) log.warn({ tokens: unreachable }, 'the Solana node did not answer for these mints at start: each is checked at its first use');
  }

  const database = await openConfiguredDatabase(config);
  log.info(
    { driver: database.driver, migrated: database.migrated, ...(database.driver === 'pglite' ? { dataDir: config.dataDir } : {}) },
    database.driver === 'pglite'
      ? 'embedded PGlite database ready (not crash-durable: set DATABASE_URL for production)'
      : 'PostgreSQL database ready',
  );
  // Wake-ups between processes: LISTEN/NOTIFY on PostgreSQL; the embedded database has one process.
  // Behind PgBouncer in transaction mode, the connections that keep a session (LISTEN, the presence
  // lock) go to PostgreSQL itself (DATABASE_DIRECT_URL; docs/architecture/scale.md).
  const sessionUrl = config.databaseDirectUrl ?? config.databaseUrl;
  const notifications = sessionUrl
    ? createPostgresNotifications({ url: sessionUrl, log: log.child({ component: 'notifications' }) })
    : createInProcessNotifications({ log });
  // Both roles here on PostgreSQL: the worker claims on its own connections, not behind API requests.
  const workerDatabase =
    config.databaseUrl && config.roles.includes('api') && config.roles.includes('worker') && config.databaseWorkerPoolMax > 0
      ? await openDatabase({ driver: 'postgres', url: config.databaseUrl, poolMax: config.databaseWorkerPoolMax, namedStatements: config.databaseNamedStatements })
      : undefined;
  // Lists and exports from the read replica within its freshness bound (docs/architecture/scale.md).
  const readReplica = config.databaseUrl && config.databaseReadUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseReadUrl, poolMax: config.databasePoolMax, namedStatements: config.databaseNamedStatements })
    : undefined;
  const reads = readReplica ? createReadRouter({ primary: database.db, replica: readReplica.db, maxLagMs: config.databaseReadMaxLagMs, probeMs: READ_REPLICA_PROBE_MS }) : undefined;
  // One registry for the process: with both roles here, /metrics shows the worker's metrics too.
  const metrics = createMetrics();
  const services = await createServices({
    config,
    db: database.db,
    clock: systemClock,
    notifications,
    log,
    emailLog: log,
    metrics,
    ...(workerDatabase ? { workerDb: workerDatabase.db } : {}),
    ...(reads ? { reads } : {}),
    ...testOnlyHooks(config.nodeEnv),
  });
  logPlatformKeys(services.platformKeysAtStart, log);
  if (database.driver === 'pglite') {
    await seedDemoMerchant(services.merchants, config.dataDir, log, {
      createOwner: (merchantId, email) => services.users.create(merchantId, { email, role: 'OWNER' }),
      // The embedded development database's demo operator: a known password in the data directory, as the demo owner's.
      createOperator: async (email) => {
        const temporaryPassword = generatePassword();
        await services.operators.createWithPassword({ email, role: 'ADMIN', password: temporaryPassword }, { actor: 'system:demo-seed' });
        return { temporaryPassword };
      },
    });
  }

  const app = early ? await buildApp({ config, db: database.db, logger: log, services, metrics, serverFactory: (handler) => early.lend(handler), operationsOnly: !servesApi }) : undefined;
  // The worker instance its claims name: registered, and the dead ones' claims released, before the first claim.
  const presence = config.roles.includes('worker')
    ? await startWorkerPresence({ db: (workerDatabase ?? database).db, postgresUrl: sessionUrl, log: log.child({ role: 'worker', component: 'presence' }) })
    : undefined;
  const worker = presence
    ? startWorker(createWorkerJobs(services, config, metrics, log.child({ role: 'worker' })), log.child({ role: 'worker' }), notifications, presence)
    : undefined;

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await app?.close();
      await early?.close();
      // No new deposit wake-ups; the worker's stop waits for those running.
      services.accountSubscriptions?.close();
      await worker?.stop();
      services.signatureSubscriptions?.close();
      await presence?.stop();
      await services.webhooks.close();
      if (services.webhookDelivery !== services.webhooks) await services.webhookDelivery.close();
      await notifications.close();
      await workerDatabase?.close();
      reads?.stop();
      await readReplica?.close();
      await database.close();
      log.info('shutdown complete');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  if (app && early) {
    await app.ready();
    early.open();
    log.info({ address: early.server.address() }, 'listening');
  }
}

/** What start-up did to the platform's keys: purposes and addresses only, never a key. */
function logPlatformKeys(keys: Services['platformKeysAtStart'], log: Logger): void {
  for (const { purpose, address } of keys.created) log.info({ purpose, address }, 'platform key created and sealed in the database (fund its address before use)');
  for (const { purpose, address } of keys.imported) log.info({ purpose, address }, 'SPONSOR_PRIVATE_KEY imported and sealed in the database (platform_keys): it can now be removed from the environment');
  if (keys.ignoredSponsorKeypair) {
    log.warn({ purpose: 'SPONSOR', address: keys.ignoredSponsorKeypair.address }, 'SPONSOR_PRIVATE_KEY is another key than the SPONSOR key stored in the database, which is the one used: remove SPONSOR_PRIVATE_KEY');
  }
}

main().catch((err: unknown) => {
  const known = startupSettings && explainStartupFailure(err, startupSettings);
  if (known) console.error(`fatal: ${known}`);
  else console.error('fatal: failed to start', err);
  process.exit(1);
});
