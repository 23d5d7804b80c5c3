/**
 * Every setting of the service, read from the environment and validated once at start-up.
 * A bad value stops the process with a message naming the variable; nothing else reads process.env.
 */
import { type Env, readEnv } from './env.ts';
import { ENV_SCHEMA, type EnvValues } from './schema.ts';
import { simulationRequirements } from './simulation.ts';
import type { ApiPixSettings, Config, WebhookSettings } from './types.ts';

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const { values, problems } = readEnv(ENV_SCHEMA, env);
  const config = toConfig(values);
  problems.push(...leaseOutlastsAttempt(config.webhooks), ...apiPixRequirements(values), ...priceSourceRequirements(values), ...productionRequirements(config), ...simulationRequirements(values));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function toConfig(env: EnvValues): Config {
  const outsideProduction = env.NODE_ENV !== 'production';
  return {
    nodeEnv: env.NODE_ENV,
    simulationMode: env.SIMULATION_MODE,
    roles: env.ROLES,
    host: env.HOST,
    port: env.PORT,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    databaseWorkerPoolMax: env.DATABASE_WORKER_POOL_MAX,
    adminToken: env.ADMIN_TOKEN,
    metricsToken: env.METRICS_TOKEN,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    jwt: {
      privateKeyPem: env.JWT_PRIVATE_KEY,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      ttlSeconds: env.JWT_TTL_SECONDS,
    },
    apiSecretPepper: env.API_SECRET_PEPPER,
    rateLimit: {
      perCredentialPerMinute: env.RATE_LIMIT_PER_MINUTE,
      tokenPerIpPerMinute: env.TOKEN_RATE_LIMIT_PER_MINUTE,
      authFailuresPerIpPerMinute: env.AUTH_FAILURE_LIMIT_PER_MINUTE,
    },
    // With a real PSP the sandbox routes are off unless asked for, and only tests may ask (simulation.ts).
    sandboxEnabled: env.SANDBOX_ENABLED ?? (outsideProduction && (env.PIX_PROVIDER !== 'api-pix' || env.NODE_ENV === 'test')),
    docsEnabled: env.DOCS_ENABLED ?? outsideProduction,
    idempotencyKeyTtlHours: env.IDEMPOTENCY_KEY_TTL_HOURS,
    orders: {
      minAmountBrl: env.ORDER_MIN_AMOUNT_BRL,
      maxAmountBrl: env.ORDER_MAX_AMOUNT_BRL,
      payinExpirySeconds: env.PAYIN_EXPIRY_SECONDS,
      payoutExpirySeconds: env.PAYOUT_EXPIRY_SECONDS,
      quoteTtlSeconds: env.QUOTE_TTL_SECONDS,
      nightStart: env.NIGHT_START,
      nightEnd: env.NIGHT_END,
      tokens: env.SUPPORTED_TOKENS,
      chains: env.SUPPORTED_CHAINS,
      workerIntervalMs: env.ORDER_WORKER_INTERVAL_MS,
      listCacheMs: env.ORDER_LIST_CACHE_MS,
      sandboxAutoCompleteSeconds: env.SANDBOX_AUTO_COMPLETE_SECONDS,
    },
    settlements: { enabled: env.SETTLEMENT_ENABLED, timeOfDay: env.SETTLEMENT_TIME },
    pix: {
      merchantName: env.PIX_MERCHANT_NAME,
      merchantCity: env.PIX_MERCHANT_CITY,
      receivingKey: env.PIX_RECEIVING_KEY,
    },
    sandbox: { usdcBrlRate: env.SANDBOX_USDC_BRL_RATE },
    prices: { source: env.PRICE_SOURCE, url: env.PRICE_URL, maxAgeMs: env.PRICE_MAX_AGE_MS, timeoutMs: env.PRICE_TIMEOUT_MS, spread: env.PRICE_SPREAD },
    receivers: {
      defaultDailyLimitBrl: env.RECEIVER_DEFAULT_DAILY_LIMIT_BRL ?? null,
      defaultDailyTransactionLimit: env.RECEIVER_DEFAULT_DAILY_TRANSACTION_LIMIT ?? null,
      defaultNightTransactionsEnabled: {
        PF: env.RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PF,
        PJ: env.RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PJ,
      },
    },
    feeTiers: {
      maxMerchantFeePercentage: env.MERCHANT_FEE_MAX_PERCENTAGE,
      maxTiersPerOrderType: env.FEE_TIERS_MAX,
    },
    pixProvider: env.PIX_PROVIDER,
    apiPix: env.PIX_PROVIDER === 'api-pix' ? apiPixSettings(env) : undefined,
    reconciliation: {
      intervalMs: env.RECONCILIATION_INTERVAL_MS,
      graceSeconds: env.RECONCILIATION_GRACE_SECONDS,
      lookbackSeconds: env.RECONCILIATION_LOOKBACK_SECONDS,
    },
    webhooks: {
      retryScheduleSeconds: env.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      allowHttp: env.WEBHOOK_ALLOW_HTTP ?? outsideProduction,
      allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      workerIntervalMs: env.WEBHOOK_WORKER_INTERVAL_MS,
      concurrency: env.WEBHOOK_CONCURRENCY,
      perEndpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
      claimLeaseMs: env.WEBHOOK_CLAIM_LEASE_MS,
      disableAfterDays: env.WEBHOOK_DISABLE_AFTER_DAYS,
      deliveryRetentionDays: env.WEBHOOK_DELIVERY_RETENTION_DAYS,
      eventRetentionDays: env.EVENT_RETENTION_DAYS,
    },
    webhookSecretKey: env.WEBHOOK_SECRET_KEY,
    walletKek: env.WALLET_KEK,
    walletKekVersion: env.WALLET_KEK_VERSION,
    walletKekPrevious: env.WALLET_KEK_PREVIOUS ?? {},
    sponsorPrivateKey: env.SPONSOR_PRIVATE_KEY,
    solanaRpcUrl: env.SOLANA_RPC_URL,
    wallets: {
      allowedPrograms: env.WALLET_ALLOWED_PROGRAMS,
      maxComputeUnitPrice: env.WALLET_MAX_CU_PRICE_MICROLAMPORTS,
      maxComputeUnitLimit: env.WALLET_MAX_CU_LIMIT,
      maxFeeLamports: env.WALLET_MAX_FEE_LAMPORTS,
      sponsorDailyBudgetLamports: env.WALLET_SPONSOR_DAILY_BUDGET_LAMPORTS,
      maxInstructions: env.WALLET_MAX_INSTRUCTIONS,
      signRateLimitPerMinute: env.WALLET_SIGN_RATE_LIMIT_PER_MINUTE,
      sandboxSponsorLamports: env.SANDBOX_SPONSOR_LAMPORTS,
      keyCacheSeconds: env.WALLET_KEY_CACHE_SECONDS,
    },
  };
}

/** The webhook route's path (src/modules/pix-webhooks/routes.ts) under the public origin. */
export const PIX_WEBHOOK_PATH = '/api/v1/pix-provider/webhook';

const API_PIX_REQUIRED = ['PIX_API_BASE_URL', 'PIX_OAUTH_TOKEN_URL', 'PIX_CLIENT_ID', 'PIX_CLIENT_SECRET', 'PIX_CLIENT_CERT', 'PIX_CLIENT_KEY', 'PIX_WEBHOOK_PUBLIC_URL', 'PIX_WEBHOOK_TOKEN'] as const;

/** PIX_PROVIDER=api-pix needs every setting of the PSP (a bad one was already reported and reads as unset). */
function apiPixRequirements(env: EnvValues): string[] {
  if (env.PIX_PROVIDER !== 'api-pix') return [];
  const plainCallback = env.NODE_ENV === 'production' && env.PIX_WEBHOOK_PUBLIC_URL?.startsWith('http:') ? ['PIX_WEBHOOK_PUBLIC_URL must be https:// when NODE_ENV=production'] : [];
  return plainCallback.concat(API_PIX_REQUIRED.filter((name) => env[name] === undefined).map((name) => `${name} is required when PIX_PROVIDER=api-pix`));
}

function apiPixSettings(env: EnvValues): ApiPixSettings | undefined {
  if (API_PIX_REQUIRED.some((name) => env[name] === undefined)) return undefined;
  const origin = new URL(env.PIX_WEBHOOK_PUBLIC_URL!).origin;
  return {
    baseUrl: env.PIX_API_BASE_URL!.replace(/\/+$/, ''),
    tokenUrl: env.PIX_OAUTH_TOKEN_URL!,
    payoutBaseUrl: (env.PIX_OUT_BASE_URL ?? new URL(env.PIX_API_BASE_URL!).origin).replace(/\/+$/, ''),
    clientId: env.PIX_CLIENT_ID!,
    clientSecret: env.PIX_CLIENT_SECRET!,
    clientCertPem: env.PIX_CLIENT_CERT!,
    clientKeyPem: env.PIX_CLIENT_KEY!,
    caPem: env.PIX_CA_CERT,
    timeoutMs: env.PIX_API_TIMEOUT_MS,
    maxAttempts: env.PIX_API_MAX_ATTEMPTS,
    receivingKey: env.PIX_RECEIVING_KEY,
    callbackUrl: `${origin}${PIX_WEBHOOK_PATH}/${env.PIX_WEBHOOK_TOKEN!}`,
    webhookToken: env.PIX_WEBHOOK_TOKEN!,
    webhookHeaderSecret: env.PIX_WEBHOOK_HEADER_SECRET ? { name: env.PIX_WEBHOOK_HEADER_NAME.toLowerCase(), value: env.PIX_WEBHOOK_HEADER_SECRET } : undefined,
    webhookAllowedIps: env.PIX_WEBHOOK_ALLOWED_IPS,
  };
}

/** PRICE_SOURCE=http needs its URL, https:// in production (a bad one was already reported and reads as unset). */
function priceSourceRequirements(env: EnvValues): string[] {
  if (env.PRICE_SOURCE !== 'http') return [];
  if (env.PRICE_URL === undefined) return ['PRICE_URL is required when PRICE_SOURCE=http'];
  return env.NODE_ENV === 'production' && env.PRICE_URL.startsWith('http:') ? ['PRICE_URL must be https:// when NODE_ENV=production'] : [];
}

/** A delivery's lease must outlast its attempt, or a live attempt's delivery is claimed again. */
function leaseOutlastsAttempt(webhooks: WebhookSettings): string[] {
  return webhooks.claimLeaseMs < webhooks.timeoutMs + 5000
    ? ['WEBHOOK_CLAIM_LEASE_MS must exceed WEBHOOK_TIMEOUT_MS by at least 5000 (a lease must outlast its attempt)']
    : [];
}

/**
 * Generated development keys live in one data directory; several production processes must share
 * the same keys, so production requires them explicitly (and a durable database).
 */
function productionRequirements(config: Config): string[] {
  if (config.nodeEnv !== 'production') return [];
  const required: [string, unknown, string?][] = [
    ['JWT_PRIVATE_KEY', config.jwt.privateKeyPem],
    ['API_SECRET_PEPPER', config.apiSecretPepper],
    ['WEBHOOK_SECRET_KEY', config.webhookSecretKey],
    ['WALLET_KEK', config.walletKek],
    ['SPONSOR_PRIVATE_KEY', config.sponsorPrivateKey],
    ['DATABASE_URL', config.databaseUrl, ' (the embedded database is not durable)'],
  ];
  return required.filter(([, value]) => !value).map(([name, , why = '']) => `${name} is required when NODE_ENV=production${why}`);
}
