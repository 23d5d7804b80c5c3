/** The typed configuration the rest of the service reads (built from the environment by load.ts). */
import type { TrustProxy } from './formats.ts';
export const ROLES = ['api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const NODE_ENVS = ['development', 'production', 'test'] as const;

export interface Config {
  nodeEnv: (typeof NODE_ENVS)[number];
  /** SIMULATION_MODE: everything is simulated (no real provider configured); production may start on it. */
  simulationMode: boolean;
  roles: Role[];
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL connection string; unset means the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /** With both roles in one process on PostgreSQL: the worker's own pool (0: it shares databasePoolMax). */
  databaseWorkerPoolMax: number;
  /** Bearer token of the operator API; unset disables every /admin route. */
  adminToken: string | undefined;
  /** Bearer token GET /metrics requires. Unset: /metrics is open, except in production, where it is closed. */
  metricsToken: string | undefined;
  logLevel: LogLevel;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses and CIDRs (never true). */
  trustProxy: TrustProxy;
  bodyLimitBytes: number;
  jwt: {
    /** Ed25519 private key, PKCS#8 PEM. Unset: a development key is generated under dataDir. */
    privateKeyPem: string | undefined;
    issuer: string;
    audience: string;
    ttlSeconds: number;
  };
  /** Key of the HMAC that stores API secrets. Unset: a development key is generated under dataDir. */
  apiSecretPepper: string | undefined;
  rateLimit: {
    /** Requests per minute per API credential; 0 disables the limit. */
    perCredentialPerMinute: number;
    /** Requests per minute per client IP on POST /auth/token; 0 disables the limit. */
    tokenPerIpPerMinute: number;
    /** Failed authentications per minute per client IP before 429 without a lookup; 0 disables the limit. */
    authFailuresPerIpPerMinute: number;
  };
  /** Mounts /api/v1/sandbox (test drivers for the simulated PSP and chain, and KYC decisions). */
  sandboxEnabled: boolean;
  /** Serves the interactive API reference at /docs (off in production unless DOCS_ENABLED). */
  docsEnabled: boolean;
  /** Hours an Idempotency-Key is remembered (at least 24, DESIGN.md §4); older keys are purged by the worker. */
  idempotencyKeyTtlHours: number;
  orders: OrderSettings;
  /** The daily settlement run: at this São Paulo time of day, by the worker. */
  settlements: { enabled: boolean; timeOfDay: string };
  /** The platform's own PIX receiving account, as the sandbox PSP writes it into BR Codes. */
  pix: PixSettings;
  sandbox: SandboxSettings;
  prices: PriceSettings;
  receivers: {
    /** Decimal text with 2 places, or null for no limit. */
    defaultDailyLimitBrl: string | null;
    defaultDailyTransactionLimit: number | null;
    /** Banco Central's night limits concern individuals (PF); companies are at the institution's discretion. */
    defaultNightTransactionsEnabled: { PF: boolean; PJ: boolean };
  };
  feeTiers: {
    /** Highest merchant fee a merchant may set, as a fraction (0.1 = 10 %). */
    maxMerchantFeePercentage: string;
    maxTiersPerOrderType: number;
  };
  /** The PIX payment provider (adapter) in use. */
  pixProvider: 'sandbox' | 'api-pix';
  /** PIX_PROVIDER=api-pix: the PSP's API Pix and PIX-out API (every field checked at start-up); else undefined. */
  apiPix: ApiPixSettings | undefined;
  /** The worker's reconciliation with the PIX provider. */
  reconciliation: { intervalMs: number; graceSeconds: number; lookbackSeconds: number };
  webhooks: WebhookSettings;
  /** Key under which endpoint signing secrets are encrypted at rest. Unset: a development key is generated under dataDir. */
  webhookSecretKey: string | undefined;
  /**
   * Key-encryption key of managed wallets' private keys: 32 bytes, base64. Unset: a development
   * key is generated under dataDir. Required in production.
   */
  walletKek: string | undefined;
  /** The version stored with every key sealed under walletKek (rotation: bump it, move the old key to walletKekPrevious). */
  walletKekVersion: number;
  /** Retired KEKs by version, still able to open keys sealed under them. */
  walletKekPrevious: Record<number, string>;
  /**
   * The platform's fee payer (sponsor): base58 of its 64-byte keypair (seed then public key, the
   * solana-keygen and wallet export format) or the JSON array of solana-keygen's file. Unset: a
   * development key is generated under dataDir. Required in production.
   */
  sponsorPrivateKey: string | undefined;
  /** Solana JSON-RPC endpoint for managed wallets; unset means the in-process LiteSVM sandbox chain. */
  solanaRpcUrl: string | undefined;
  wallets: WalletSettings;
}

export interface WalletSettings {
  /** Program ids a sponsored transaction may call. */
  allowedPrograms: string[];
  /** Highest SetComputeUnitPrice, micro-lamports per compute unit. */
  maxComputeUnitPrice: number;
  /** Highest compute-unit limit: the SetComputeUnitLimit, or the runtime's default when a price is set. */
  maxComputeUnitLimit: number;
  /** Highest total fee (signatures + priority) the sponsor pays for one transaction, lamports. */
  maxFeeLamports: number;
  /** Fees the sponsor pays per merchant per São Paulo day, lamports, enforced in the database (0: none). */
  sponsorDailyBudgetLamports: number;
  /** Most instructions in one sponsored transaction. */
  maxInstructions: number;
  /** Sign requests per minute per receiver (and per merchant wallet); 0 disables the limit. */
  signRateLimitPerMinute: number;
  /** Sandbox chain only: lamports airdropped to the sponsor when the chain starts. */
  sandboxSponsorLamports: number;
  /** How long a decrypted private key stays in memory, seconds (0: decrypt on every request). */
  keyCacheSeconds: number;
}

export interface WebhookSettings {
  /** Seconds before each automatic retry; after the last one fails the delivery is FAILED. */
  retryScheduleSeconds: number[];
  /** Whole-request timeout of one attempt (connect, send, response headers and the kept body). */
  timeoutMs: number;
  /**
   * Development receivers: loopback targets (127.0.0.0/8, ::1) are permitted, and plain http:// is
   * accepted for targets whose every address is non-public. http:// never goes to a public address.
   */
  allowHttp: boolean;
  /** Private, shared (CGNAT), link-local, unique-local and loopback targets are permitted. */
  allowPrivateTargets: boolean;
  /** The delivery worker's fallback sweep; notifications wake it at once. */
  workerIntervalMs: number;
  /** Attempts in flight at once per worker process. */
  concurrency: number;
  /** Attempts in flight at once per endpoint, across all workers. */
  perEndpointConcurrency: number;
  /** How long a claim lasts: a delivery whose worker died is retried once its lease has passed. */
  claimLeaseMs: number;
  /** An endpoint failing this many days is disabled (0: never). */
  disableAfterDays: number;
  /** Days a finished delivery and its attempts are kept. */
  deliveryRetentionDays: number;
  /** Days an event is kept (once none of its deliveries is left). */
  eventRetentionDays: number;
}

export interface PixSettings {
  /** BR Code field 59; written as uppercase ASCII, at most 25 characters (pixText). */
  merchantName: string;
  /** BR Code field 60; written as uppercase ASCII, at most 15 characters (pixText). */
  merchantCity: string;
  /** The platform's PIX key in DICT form (BR Code 26/01). */
  receivingKey: string;
}

export interface ApiPixSettings {
  baseUrl: string;
  tokenUrl: string;
  payoutBaseUrl: string;
  clientId: string;
  clientSecret: string;
  /** PEM texts (read from files at start-up when paths were given). */
  clientCertPem: string;
  clientKeyPem: string;
  caPem: string | undefined;
  timeoutMs: number;
  maxAttempts: number;
  /** Our PIX key: charges' `chave`, the webhook's `{chave}`, the payer of PIX sent. */
  receivingKey: string;
  /** The callback registered with PUT /webhook/{chave}: the PSP posts to `<callbackUrl>/pix`. */
  callbackUrl: string;
  webhookToken: string;
  /** A header every notification must carry (name lower-case), when PIX_WEBHOOK_HEADER_SECRET is set. */
  webhookHeaderSecret: { name: string; value: string } | undefined;
  webhookAllowedIps: string[] | undefined;
}

export interface PriceSettings {
  /** sandbox: the fixed sandbox.usdcBrlRate; http: the price document at url. */
  source: 'sandbox' | 'http';
  /** PRICE_SOURCE=http: the price document's URL (required then). */
  url: string | undefined;
  maxAgeMs: number;
  timeoutMs: number;
  /** Fraction of the rate taken in the platform's favour on each side (decimal text, below 0.5), with any source. */
  spread: string;
}

export interface SandboxSettings {
  /** BRL per USDC of the sandbox price source, decimal text (e.g. "5.40"). */
  usdcBrlRate: string;
}

export interface OrderSettings {
  /** Decimal text, BRL. */
  minAmountBrl: string;
  maxAmountBrl: string;
  payinExpirySeconds: number;
  payoutExpirySeconds: number;
  quoteTtlSeconds: number;
  /** Night window in São Paulo time, "HH:MM"; orders in it need nightTransactionsEnabled. */
  nightStart: string;
  nightEnd: string;
  /** Supported token symbols and their decimals. */
  tokens: Record<string, number>;
  chains: string[];
  workerIntervalMs: number;
  /** How long a GET /orders page may be served from memory (0: never). */
  listCacheMs: number;
  /** Sandbox only: pay charges and deposit for orders older than this many seconds (0: never). */
  sandboxAutoCompleteSeconds: number;
}
