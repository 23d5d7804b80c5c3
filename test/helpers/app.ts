/**
 * Builds the real app on a fresh test database, with small factories for what tests need.
 */
import { appendFileSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { App } from '../../src/http/types.ts';
import { generateDevSecrets, type RuntimeConfig, withSecrets } from '../../src/runtime-config.ts';
import { openTestDatabase } from './database.ts';
import { type Clock, systemClock } from '../../src/lib/clock.ts';
import type { TreasuryBalanceReader } from '../../src/adapters/chain/treasury-port.ts';
import { createServices } from '../../src/services.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef0123456789';
const secrets = generateDevSecrets();

/**
 * Every injected request comes from 127.0.0.1, so the failed-authentication limiter (30 a minute
 * per IP by default) would refuse the security suites' hundreds of deliberate 401s: off here, on
 * in the tests of the limiter itself (test/http/auth-failures.test.ts) and in started processes.
 */
export function testConfig(env: Record<string, string> = {}): RuntimeConfig {
  return withSecrets(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_TOKEN, DATA_DIR: '/nonexistent', AUTH_FAILURE_LIMIT_PER_MINUTE: '0', ...env }), secrets);
}

export interface TestMerchant {
  merchantId: string;
  credentialId: string;
  apiKey: string;
  apiSecret: string;
  /** x-api-key and x-api-secret headers */
  headers: Record<string, string>;
}

export interface TestContext {
  app: App;
  database: DatabaseHandle;
  config: RuntimeConfig;
  /**
   * Another app over the same database with other settings (and, for probes, extra routes
   * added before it starts). Closed by close().
   */
  buildApp(env?: Record<string, string>, logger?: FastifyBaseLogger, extraRoutes?: (app: App) => void): Promise<App>;
  createMerchant(name?: string): Promise<TestMerchant>;
  bearerFor(merchant: TestMerchant): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** A clock tests move by hand. */
export class TestClock implements Clock {
  private current: Date;
  constructor(current: Date) {
    this.current = current;
  }
  now = () => new Date(this.current);
  set(at: Date | string) {
    this.current = new Date(at);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** DOC_STATUS_LOG=file: every answer whose status the route does not document, one JSON line each. */
function recordUndocumentedStatuses(app: App): void {
  const log = process.env.DOC_STATUS_LOG;
  if (!log) return;
  app.addHook('onResponse', async (request, reply) => {
    const documented = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
    if (!documented || String(reply.statusCode) in documented) return;
    appendFileSync(log, `${JSON.stringify({ method: request.method, route: request.routeOptions.url, status: reply.statusCode })}\n`);
  });
}

/**
 * `treasuryReader`: the treasury's balances on chain (default: the sandbox chain's, none);
 * `logger`: where the apps log (default: their own, at LOG_LEVEL, silent here).
 */
export async function createTestContext(
  env: Record<string, string> = {},
  options: { clock?: Clock; treasuryReader?: TreasuryBalanceReader; logger?: FastifyBaseLogger } = {},
): Promise<TestContext> {
  const database = await openTestDatabase();
  const apps: App[] = [];
  const build = async (overrides: Record<string, string> = {}, ownLogger?: FastifyBaseLogger, extraRoutes?: (app: App) => void) => {
    const config = testConfig({ ...env, ...overrides });
    const { treasuryReader } = options;
    const logger = ownLogger ?? options.logger;
    const app = await buildApp({
      config,
      db: database.db,
      ...(treasuryReader ? { services: await createServices({ config, db: database.db, clock: options.clock ?? systemClock, treasuryReader, ...(logger ? { log: logger } : {}) }) } : {}),
      ...(logger ? { logger } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    apps.push(app);
    recordUndocumentedStatuses(app);
    extraRoutes?.(app);
    await app.ready();
    return app;
  };
  const app = await build();
  const config = testConfig(env);

  return {
    app,
    database,
    config,
    buildApp: build,
    async createMerchant(name = 'Test Merchant') {
      const { merchant, credential } = await app.services.merchants.createMerchant({ name }, { actor: 'test' });
      return {
        merchantId: merchant.id,
        credentialId: credential.id,
        apiKey: credential.apiKey,
        apiSecret: credential.apiSecret,
        headers: { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret },
      };
    },
    async bearerFor(merchant) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        payload: { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret },
      });
      if (response.statusCode !== 200) throw new Error(`token exchange failed: ${response.body}`);
      return { authorization: `Bearer ${response.json().accessToken}` };
    },
    async close() {
      await Promise.all(apps.map((a) => a.close()));
      await database.close();
    },
  };
}

/** Asserts the spec's Error object and returns it. */
export function expectErrorBody(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string) {
  const body = response.json() as { error: string; message: string; requestId: string; details?: Record<string, unknown> };
  if (response.statusCode !== status || body.error !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.statusCode} ${JSON.stringify(body)}`);
  }
  if (typeof body.message !== 'string' || body.message.length === 0) throw new Error('Error object without a message');
  if (body.requestId !== response.headers['x-request-id']) throw new Error('requestId differs from the x-request-id header');
  return body;
}
