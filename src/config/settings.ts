/**
 * The configuration the service reads: the variables of schema.ts, decoded, arranged into one
 * section per part of the service. Each setting is named once, here, beside the variable it is
 * read from; its type is that variable's decoded type (StaticDecode of its schema, where its
 * meaning, default and bounds are written), so no type restates the schema. `Config` is what
 * configFrom builds, and each section's type is its part of `Config`: the modules and adapters
 * take these (or a Pick of them) and never declare their own.
 */
import { fileURLToPath } from 'node:url';
import { mintsOf } from './chain-schema.ts';
import type { EnvValues } from './schema.ts';

/** Setting → the variable it is read from. */
type Sources = Readonly<Record<string, keyof EnvValues>>;

/** The settings of `Sources`, each typed as its variable decodes. */
type Read<S extends Sources> = { -readonly [Setting in keyof S]: EnvValues[S[Setting]] };

function read<S extends Sources>(env: EnvValues, sources: S): Read<S> {
  return Object.fromEntries(Object.entries(sources).map(([setting, variable]) => [setting, env[variable]])) as Read<S>;
}

const SERVICE = {
  nodeEnv: 'NODE_ENV',
  simulationMode: 'SIMULATION_MODE',
  roles: 'ROLES',
  host: 'HOST',
  port: 'PORT',
  /** A worker-only process's listener for /healthz, /readyz and /metrics; unset: none. */
  operationsPort: 'OPERATIONS_PORT',
  dataDir: 'DATA_DIR',
  /** Unset: the embedded PGlite database under dataDir. */
  databaseUrl: 'DATABASE_URL',
  /** PostgreSQL itself, for LISTEN/NOTIFY, the presence lock and migrations when DATABASE_URL is a pooler; unset: databaseUrl. */
  databaseDirectUrl: 'DATABASE_DIRECT_URL',
  /** False behind a pooler in transaction mode that does not keep named prepared statements. */
  databaseNamedStatements: 'DATABASE_NAMED_STATEMENTS',
  /** A streaming replica for lists and exports (db/read-router.ts); unset: none. */
  databaseReadUrl: 'DATABASE_READ_URL',
  databaseReadMaxLagMs: 'DATABASE_READ_MAX_LAG_MS',
  databasePoolMax: 'DATABASE_POOL_MAX',
  databaseWorkerPoolMax: 'DATABASE_WORKER_POOL_MAX',
  adminToken: 'ADMIN_TOKEN',
  metricsToken: 'METRICS_TOKEN',
  logLevel: 'LOG_LEVEL',
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses and CIDRs (never true). */
  trustProxy: 'TRUST_PROXY',
  bodyLimitBytes: 'BODY_LIMIT_BYTES',
  idempotencyKeyTtlHours: 'IDEMPOTENCY_KEY_TTL_HOURS',
  pixProvider: 'PIX_PROVIDER',
  solanaRpcUrl: 'SOLANA_RPC_URL',
} as const;

/** Unset outside production: runtime-config.ts fills them from the development secrets file. */
const KEYS = {
  apiSecretPepper: 'API_SECRET_PEPPER',
  webhookSecretKey: 'WEBHOOK_SECRET_KEY',
  /** Rotation without downtime: the old key, until `rotate-secrets` has re-sealed what it sealed. */
  apiSecretPepperPrevious: 'API_SECRET_PEPPER_PREVIOUS',
  webhookSecretKeyPrevious: 'WEBHOOK_SECRET_KEY_PREVIOUS',
  walletKek: 'WALLET_KEK',
  /** Rotation: bump it, and move the old key to WALLET_KEK_PREVIOUS. */
  walletKekVersion: 'WALLET_KEK_VERSION',
  sponsorPrivateKey: 'SPONSOR_PRIVATE_KEY',
} as const;

const JWT = { privateKeyPem: 'JWT_PRIVATE_KEY', issuer: 'JWT_ISSUER', audience: 'JWT_AUDIENCE', ttlSeconds: 'JWT_TTL_SECONDS' } as const;

const RATE_LIMIT = {
  perCredentialPerMinute: 'RATE_LIMIT_PER_MINUTE',
  tokenPerIpPerMinute: 'TOKEN_RATE_LIMIT_PER_MINUTE',
  authFailuresPerIpPerMinute: 'AUTH_FAILURE_LIMIT_PER_MINUTE',
} as const;

const ORDERS = {
  /** Decimal text, BRL. */
  minAmountBrl: 'ORDER_MIN_AMOUNT_BRL',
  maxAmountBrl: 'ORDER_MAX_AMOUNT_BRL',
  payinExpirySeconds: 'PAYIN_EXPIRY_SECONDS',
  payoutExpirySeconds: 'PAYOUT_EXPIRY_SECONDS',
  quoteTtlSeconds: 'QUOTE_TTL_SECONDS',
  /** Night window in São Paulo time, "HH:MM"; orders in it need the receiver's nightTransactionsEnabled. */
  nightStart: 'NIGHT_START',
  nightEnd: 'NIGHT_END',
  /** Supported token symbols and their decimals. */
  tokens: 'SUPPORTED_TOKENS',
  chains: 'SUPPORTED_CHAINS',
  workerIntervalMs: 'ORDER_WORKER_INTERVAL_MS',
  listCacheMs: 'ORDER_LIST_CACHE_MS',
  exportMaxRows: 'ORDER_EXPORT_MAX_ROWS',
  exportPageSize: 'ORDER_EXPORT_PAGE_SIZE',
  /** The back office's stuck list: minutes an order in transit may stay unchanged. */
  stuckOrderMinutes: 'STUCK_ORDER_MINUTES',
  /** A URL template with {signature}, or '' for none. */
  explorerTxUrl: 'CHAIN_EXPLORER_TX_URL',
  sandboxAutoCompleteSeconds: 'SANDBOX_AUTO_COMPLETE_SECONDS',
} as const;

const SETTLEMENTS = { enabled: 'SETTLEMENT_ENABLED', timeOfDay: 'SETTLEMENT_TIME' } as const;

/** The platform's own PIX receiving account, as the sandbox PSP writes it into BR Codes. */
const PIX = {
  /** BR Code field 59; written as uppercase ASCII, at most 25 characters (pixText). */
  merchantName: 'PIX_MERCHANT_NAME',
  /** BR Code field 60; written as uppercase ASCII, at most 15 characters (pixText). */
  merchantCity: 'PIX_MERCHANT_CITY',
  /** The platform's PIX key in DICT form (BR Code 26/01). */
  receivingKey: 'PIX_RECEIVING_KEY',
} as const;

const PRICES = { source: 'PRICE_SOURCE', url: 'PRICE_URL', maxAgeMs: 'PRICE_MAX_AGE_MS', timeoutMs: 'PRICE_TIMEOUT_MS', spread: 'PRICE_SPREAD' } as const;

const FEE_TIERS = { maxMerchantFeePercentage: 'MERCHANT_FEE_MAX_PERCENTAGE', maxTiersPerOrderType: 'FEE_TIERS_MAX' } as const;

const RECONCILIATION = {
  intervalMs: 'RECONCILIATION_INTERVAL_MS',
  graceSeconds: 'RECONCILIATION_GRACE_SECONDS',
  lookbackSeconds: 'RECONCILIATION_LOOKBACK_SECONDS',
} as const;

const TREASURY = {
  /** Currency → threshold, decimal text in whole units. */
  lowBalance: 'TREASURY_LOW_BALANCE',
  /** The sponsor's threshold, decimal text in SOL. */
  sponsorLowBalance: 'SPONSOR_LOW_BALANCE',
  reconciliationIntervalMs: 'TREASURY_RECONCILIATION_INTERVAL_MS',
  balanceMaxAgeMs: 'TREASURY_BALANCE_MAX_AGE_MS',
  liquidityRefreshMs: 'TREASURY_LIQUIDITY_REFRESH_MS',
} as const;

const WEBHOOKS = {
  retryScheduleSeconds: 'WEBHOOK_RETRY_SCHEDULE',
  timeoutMs: 'WEBHOOK_TIMEOUT_MS',
  allowPrivateTargets: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
  workerIntervalMs: 'WEBHOOK_WORKER_INTERVAL_MS',
  concurrency: 'WEBHOOK_CONCURRENCY',
  perEndpointConcurrency: 'WEBHOOK_ENDPOINT_CONCURRENCY',
  claimLeaseMs: 'WEBHOOK_CLAIM_LEASE_MS',
  disableAfterDays: 'WEBHOOK_DISABLE_AFTER_DAYS',
  deliveryRetentionDays: 'WEBHOOK_DELIVERY_RETENTION_DAYS',
  eventRetentionDays: 'EVENT_RETENTION_DAYS',
} as const;

const CHAIN = {
  provider: 'CHAIN_PROVIDER',
  rpcUrl: 'SOLANA_RPC_URL',
  commitment: 'SOLANA_COMMITMENT',
  computeUnitLimit: 'CHAIN_COMPUTE_UNIT_LIMIT',
  priorityFeeMaxMicroLamports: 'CHAIN_PRIORITY_FEE_MAX_MICROLAMPORTS',
  transferMaxAttempts: 'CHAIN_TRANSFER_MAX_ATTEMPTS',
  transferBatchMax: 'CHAIN_TRANSFER_BATCH_MAX',
  lookupTables: 'CHAIN_LOOKUP_TABLES',
  treasuryWallets: 'CHAIN_TREASURY_WALLETS',
  depositWatchIntervalMs: 'CHAIN_DEPOSIT_WATCH_INTERVAL_MS',
  depositWatchBatch: 'CHAIN_DEPOSIT_WATCH_BATCH',
  depositFullReadIntervalMs: 'CHAIN_DEPOSIT_FULL_READ_INTERVAL_MS',
  depositLateWatchHours: 'CHAIN_DEPOSIT_LATE_WATCH_HOURS',
} as const;

const WALLETS = {
  allowedPrograms: 'WALLET_ALLOWED_PROGRAMS',
  maxComputeUnitPrice: 'WALLET_MAX_CU_PRICE_MICROLAMPORTS',
  maxComputeUnitLimit: 'WALLET_MAX_CU_LIMIT',
  maxFeeLamports: 'WALLET_MAX_FEE_LAMPORTS',
  sponsorDailyBudgetLamports: 'WALLET_SPONSOR_DAILY_BUDGET_LAMPORTS',
  maxInstructions: 'WALLET_MAX_INSTRUCTIONS',
  signRateLimitPerMinute: 'WALLET_SIGN_RATE_LIMIT_PER_MINUTE',
  sandboxSponsorLamports: 'SANDBOX_SPONSOR_LAMPORTS',
  keyCacheSeconds: 'WALLET_KEY_CACHE_SECONDS',
} as const;

const EMAIL = { provider: 'EMAIL_PROVIDER', smtpUrl: 'SMTP_URL', from: 'EMAIL_FROM' } as const;

/**
 * Where a service without PUBLIC_APP_URL is reached: its own listener. A wildcard or loopback
 * HOST is reached as localhost (what a browser on the machine types); an IPv6 literal is bracketed.
 */
export function listenerUrl(host: string, port: number): string {
  const local = ['0.0.0.0', '::', '127.0.0.1', '::1', ''].includes(host);
  const name = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/**
 * The node's PubSub websocket: SOLANA_WS_URL, else derived from SOLANA_RPC_URL as Solana's clients
 * do (web3.js makeWebsocketUrl: http→ws, https→wss, an explicit port + 1, a validator's RPC on 8899
 * serving PubSub on 8900); 'none' or no node: none (the transfer steps poll alone).
 */
export function chainWebsocketUrl(wsUrl: string | undefined, rpcUrl: string | undefined): string | undefined {
  if (wsUrl === 'none') return undefined;
  if (wsUrl !== undefined || rpcUrl === undefined) return wsUrl;
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port !== '') url.port = String(Number(url.port) + 1);
  return url.toString();
}

/** The configuration the variables describe (a variable the reader refused reads as unset). */
export function configFrom(env: EnvValues) {
  const outsideProduction = env.NODE_ENV !== 'production';
  const walletKekPrevious: Record<number, string> = env.WALLET_KEK_PREVIOUS ?? {};
  return {
    ...read(env, SERVICE),
    ...read(env, KEYS),
    walletKekPrevious,
    jwt: read(env, JWT),
    rateLimit: read(env, RATE_LIMIT),
    // With a real PSP the sandbox routes are off unless asked for, and only tests may ask (simulation.ts).
    sandboxEnabled: env.SANDBOX_ENABLED ?? (outsideProduction && (env.PIX_PROVIDER !== 'api-pix' || env.NODE_ENV === 'test')),
    docsEnabled: env.DOCS_ENABLED ?? outsideProduction,
    /** The dashboard's build (src/http/dashboard.ts): web/dist beside src/, wherever the process was started from. */
    dashboardDir: env.DASHBOARD_DIR ?? fileURLToPath(new URL('../../web/dist', import.meta.url)),
    orders: read(env, ORDERS),
    settlements: read(env, SETTLEMENTS),
    pix: read(env, PIX),
    /** BRL per unit of each token of the sandbox price source; the list's USDC over SANDBOX_USDC_BRL_RATE. */
    sandbox: { tokenBrlRates: { USDC: env.SANDBOX_USDC_BRL_RATE, ...env.SANDBOX_TOKEN_BRL_RATES } as Record<string, string> },
    prices: read(env, PRICES),
    receivers: {
      /** Decimal text with 2 places, or null for no limit. */
      defaultDailyLimitBrl: env.RECEIVER_DEFAULT_DAILY_LIMIT_BRL ?? null,
      defaultDailyTransactionLimit: env.RECEIVER_DEFAULT_DAILY_TRANSACTION_LIMIT ?? null,
      /** Banco Central's night limits concern individuals (PF); companies are at the institution's discretion. */
      defaultNightTransactionsEnabled: { PF: env.RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PF, PJ: env.RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PJ },
    },
    feeTiers: read(env, FEE_TIERS),
    /** PIX_PROVIDER=api-pix with every setting it requires (load.ts reports the missing ones); else undefined. */
    apiPix: env.PIX_PROVIDER === 'api-pix' ? apiPixSettings(env) : undefined,
    reconciliation: read(env, RECONCILIATION),
    treasury: read(env, TREASURY),
    webhooks: {
      ...read(env, WEBHOOKS),
      /** Development receivers: loopback targets, and plain http:// to targets whose every address is non-public. */
      allowHttp: env.WEBHOOK_ALLOW_HTTP ?? outsideProduction,
    },
    wallets: read(env, WALLETS),
    email: {
      ...read(env, EMAIL),
      /** Emailed links and the SIWS challenges' domain and URI start with it: PUBLIC_APP_URL, or this process's own listener. */
      publicAppUrl: env.PUBLIC_APP_URL ?? listenerUrl(env.HOST, env.PORT),
    },
    /** The orders' chain (PAYIN transfers, PAYOUT deposits); the variables CHAIN_PROVIDER=solana-rpc requires are checked by load.ts. */
    chain: { ...read(env, CHAIN), tokenMints: mintsOf(env.CHAIN_TOKEN_MINTS), wsUrl: chainWebsocketUrl(env.SOLANA_WS_URL, env.SOLANA_RPC_URL) },
  };
}

/** The webhook route's path (src/modules/pix-webhooks/routes.ts) under the public origin. */
export const PIX_WEBHOOK_PATH = '/api/v1/pix-provider/webhook';

/** The variables PIX_PROVIDER=api-pix cannot do without. */
export const API_PIX_REQUIRED = ['PIX_API_BASE_URL', 'PIX_OAUTH_TOKEN_URL', 'PIX_CLIENT_ID', 'PIX_CLIENT_SECRET', 'PIX_CLIENT_CERT', 'PIX_CLIENT_KEY', 'PIX_WEBHOOK_PUBLIC_URL', 'PIX_WEBHOOK_TOKEN'] as const;

function apiPixSettings(env: EnvValues) {
  if (API_PIX_REQUIRED.some((name) => env[name] === undefined)) return undefined;
  const origin = new URL(env.PIX_WEBHOOK_PUBLIC_URL!).origin;
  return {
    /** API Pix base, up to and without /cob. */
    baseUrl: env.PIX_API_BASE_URL!.replace(/\/+$/, ''),
    tokenUrl: env.PIX_OAUTH_TOKEN_URL!,
    /** Efí's PIX-out API base (PUT /v3/gn/pix/{idEnvio}). */
    payoutBaseUrl: (env.PIX_OUT_BASE_URL ?? new URL(env.PIX_API_BASE_URL!).origin).replace(/\/+$/, ''),
    clientId: env.PIX_CLIENT_ID!,
    clientSecret: env.PIX_CLIENT_SECRET!,
    /** PEM texts (read from files at start-up when paths were given). */
    clientCertPem: env.PIX_CLIENT_CERT!,
    clientKeyPem: env.PIX_CLIENT_KEY!,
    caPem: env.PIX_CA_CERT,
    timeoutMs: env.PIX_API_TIMEOUT_MS,
    maxAttempts: env.PIX_API_MAX_ATTEMPTS,
    /** Our PIX key: charges' `chave`, the webhook's `{chave}`, the payer of PIX sent. */
    receivingKey: env.PIX_RECEIVING_KEY,
    /** The callback registered with PUT /webhook/{chave}: the PSP posts to `<callbackUrl>/pix`. */
    callbackUrl: `${origin}${PIX_WEBHOOK_PATH}/${env.PIX_WEBHOOK_TOKEN!}`,
    webhookToken: env.PIX_WEBHOOK_TOKEN!,
    /** A header every notification must carry (name lower-case), when PIX_WEBHOOK_HEADER_SECRET is set. */
    webhookHeaderSecret: env.PIX_WEBHOOK_HEADER_SECRET ? { name: env.PIX_WEBHOOK_HEADER_NAME.toLowerCase(), value: env.PIX_WEBHOOK_HEADER_SECRET } : undefined,
    webhookAllowedIps: env.PIX_WEBHOOK_ALLOWED_IPS,
  };
}

export type Config = ReturnType<typeof configFrom>;
export type Role = Config['roles'][number];
export type LogLevel = Config['logLevel'];
export type JwtSettings = Config['jwt'];
export type OrderSettings = Config['orders'];
export type PixSettings = Config['pix'];
export type PriceSettings = Config['prices'];
export type ReconciliationSettings = Config['reconciliation'];
export type WebhookSettings = Config['webhooks'];
export type WalletSettings = Config['wallets'];
export type ChainSettings = Config['chain'];
export type TreasurySettings = Config['treasury'];
export type EmailSettings = Config['email'];
export type ApiPixSettings = NonNullable<Config['apiPix']>;
