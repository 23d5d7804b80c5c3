/**
 * Every setting of the service, read from the environment and validated once at start-up.
 * A bad value stops the process with a message naming the variable; nothing else reads process.env.
 */
import path from 'node:path';
import { decimal } from './lib/money.ts';
import { MAX_MERCHANT_CITY, MAX_MERCHANT_NAME, pixText } from './lib/pix-brcode.ts';
import { type PixKeyType, validatePixKey } from './lib/pix-keys.ts';
import { isSolanaAddress, keypairBytes } from './lib/solana.ts';
import type { WalletSettings } from './modules/wallets/settings.ts';

export const ROLES = ['api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  roles: Role[];
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL connection string; unset means the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /** Bearer token of the operator API; unset disables every /admin route. */
  adminToken: string | undefined;
  logLevel: LogLevel;
  trustProxy: boolean;
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
  };
  /** Mounts /api/v1/sandbox (test drivers for the simulated PSP and chain, and KYC decisions). */
  sandboxEnabled: boolean;
  /** Hours an Idempotency-Key is remembered (at least 24, DESIGN.md §4); older keys are purged by the worker. */
  idempotencyKeyTtlHours: number;
  orders: OrderSettings;
  /** The daily settlement run: at this São Paulo time of day, by the worker. */
  settlements: { enabled: boolean; timeOfDay: string };
  /** The platform's own PIX receiving account, as the sandbox PSP writes it into BR Codes. */
  pix: PixSettings;
  sandbox: SandboxSettings;
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
  /** The PIX payment provider (adapter) in use; also names provider fields in events (`<provider>TransactionId`). */
  pixProvider: string;
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

/** DOMAIN.md (Solana): the programs the allow-list starts from. */
export const DEFAULT_ALLOWED_PROGRAMS = [
  '11111111111111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
];

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
  /** Pause between delivery passes of the worker. */
  workerIntervalMs: number;
  /** Attempts in flight at once per worker process. */
  concurrency: number;
  /** Attempts in flight at once per endpoint, across all workers. */
  perEndpointConcurrency: number;
  /** How long a claim lasts: a delivery whose worker died is retried once its lease has passed. */
  claimLeaseMs: number;
}

export interface PixSettings {
  /** BR Code field 59; written as uppercase ASCII, at most 25 characters (pixText). */
  merchantName: string;
  /** BR Code field 60; written as uppercase ASCII, at most 15 characters (pixText). */
  merchantCity: string;
  /** The platform's PIX key in DICT form (BR Code 26/01). */
  receivingKey: string;
}

export interface SandboxSettings {
  /** BRL per USDC of the sandbox price source, decimal text (e.g. "5.40"). */
  usdcBrlRate: string;
}

/** A fixed random key (EVP), so sandbox codes are stable across restarts; no real account has it. */
const SANDBOX_RECEIVING_KEY = '3f6d2a8e-5b1c-4e9f-a7d0-8c2b9e4f1a63';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const nodeEnv = read.oneOf('NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const config: Config = {
    nodeEnv,
    roles: read.roles('ROLES'),
    host: read.string('HOST', '127.0.0.1'),
    port: read.integer('PORT', 3000, 0, 65535),
    dataDir: path.resolve(read.string('DATA_DIR', './data')),
    databaseUrl: read.databaseUrl('DATABASE_URL'),
    databasePoolMax: read.integer('DATABASE_POOL_MAX', 10, 1, 1000),
    adminToken: read.secret('ADMIN_TOKEN', 32),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    trustProxy: read.boolean('TRUST_PROXY', false),
    bodyLimitBytes: read.integer('BODY_LIMIT_BYTES', 256 * 1024, 1024, 64 * 1024 * 1024),
    jwt: {
      privateKeyPem: read.pem('JWT_PRIVATE_KEY'),
      issuer: read.string('JWT_ISSUER', 'crypto-brl-exchange'),
      audience: read.string('JWT_AUDIENCE', 'merchant-api'),
      ttlSeconds: read.integer('JWT_TTL_SECONDS', 900, 60, 3600),
    },
    apiSecretPepper: read.secret('API_SECRET_PEPPER', 32),
    rateLimit: {
      perCredentialPerMinute: read.integer('RATE_LIMIT_PER_MINUTE', 6000, 0, 10_000_000),
      tokenPerIpPerMinute: read.integer('TOKEN_RATE_LIMIT_PER_MINUTE', 60, 0, 10_000_000),
    },
    sandboxEnabled: read.boolean('SANDBOX_ENABLED', nodeEnv !== 'production'),
    idempotencyKeyTtlHours: read.integer('IDEMPOTENCY_KEY_TTL_HOURS', 24, 24, 24 * 366),
    orders: {
      minAmountBrl: read.decimal('ORDER_MIN_AMOUNT_BRL', 2) ?? '1.00',
      maxAmountBrl: read.decimal('ORDER_MAX_AMOUNT_BRL', 2) ?? '100000.00',
      payinExpirySeconds: read.integer('PAYIN_EXPIRY_SECONDS', 900, 60, 86_400),
      payoutExpirySeconds: read.integer('PAYOUT_EXPIRY_SECONDS', 3600, 60, 86_400),
      quoteTtlSeconds: read.integer('QUOTE_TTL_SECONDS', 30, 5, 3600),
      nightStart: read.clockTime('NIGHT_START', '20:00'),
      nightEnd: read.clockTime('NIGHT_END', '06:00'),
      tokens: read.tokens('SUPPORTED_TOKENS', 'USDC:6'),
      chains: read.list('SUPPORTED_CHAINS', 'solana'),
      workerIntervalMs: read.integer('ORDER_WORKER_INTERVAL_MS', 500, 10, 60_000),
      sandboxAutoCompleteSeconds: read.integer('SANDBOX_AUTO_COMPLETE_SECONDS', 0, 0, 86_400),
    },
    settlements: {
      enabled: read.boolean('SETTLEMENT_ENABLED', true),
      timeOfDay: read.clockTime('SETTLEMENT_TIME', '00:00'),
    },
    pix: {
      merchantName: read.string('PIX_MERCHANT_NAME', 'CRYPTO BRL EXCHANGE'),
      merchantCity: read.string('PIX_MERCHANT_CITY', 'SAO PAULO'),
      receivingKey: read.string('PIX_RECEIVING_KEY', SANDBOX_RECEIVING_KEY),
    },
    sandbox: {
      usdcBrlRate: read.decimal('SANDBOX_USDC_BRL_RATE', 8) ?? '5.40',
    },
    receivers: {
      defaultDailyLimitBrl: read.decimal('RECEIVER_DEFAULT_DAILY_LIMIT_BRL', 2),
      defaultDailyTransactionLimit: read.optionalInteger('RECEIVER_DEFAULT_DAILY_TRANSACTION_LIMIT', 0, 1_000_000),
      defaultNightTransactionsEnabled: {
        PF: read.boolean('RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PF', false),
        PJ: read.boolean('RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PJ', true),
      },
    },
    feeTiers: {
      maxMerchantFeePercentage: read.decimal('MERCHANT_FEE_MAX_PERCENTAGE', 6) ?? '0.1',
      maxTiersPerOrderType: read.integer('FEE_TIERS_MAX', 20, 1, 100),
    },
    pixProvider: read.string('PIX_PROVIDER', 'sandbox'),
    webhooks: {
      retryScheduleSeconds: read.integerList('WEBHOOK_RETRY_SCHEDULE', [5, 300, 1800, 7200, 18000, 36000, 36000], 0, 7 * 86400, 20),
      timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      allowHttp: read.boolean('WEBHOOK_ALLOW_HTTP', nodeEnv !== 'production'),
      allowPrivateTargets: read.boolean('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
      workerIntervalMs: read.integer('WEBHOOK_WORKER_INTERVAL_MS', 1000, 10, 600_000),
      concurrency: read.integer('WEBHOOK_CONCURRENCY', 16, 1, 1000),
      perEndpointConcurrency: read.integer('WEBHOOK_ENDPOINT_CONCURRENCY', 4, 1, 1000),
      claimLeaseMs: read.integer('WEBHOOK_CLAIM_LEASE_MS', 60_000, 1000, 3_600_000),
    },
    webhookSecretKey: read.secret('WEBHOOK_SECRET_KEY', 32),
    walletKek: read.key32('WALLET_KEK'),
    walletKekVersion: read.integer('WALLET_KEK_VERSION', 1, 1, 32_767),
    walletKekPrevious: read.versionedKeys('WALLET_KEK_PREVIOUS'),
    sponsorPrivateKey: read.solanaKeypair('SPONSOR_PRIVATE_KEY'),
    solanaRpcUrl: read.httpUrl('SOLANA_RPC_URL'),
    wallets: {
      allowedPrograms: read.solanaAddresses('WALLET_ALLOWED_PROGRAMS', DEFAULT_ALLOWED_PROGRAMS),
      maxComputeUnitPrice: read.integer('WALLET_MAX_CU_PRICE_MICROLAMPORTS', 1_000_000, 0, 1_000_000_000_000),
      maxComputeUnitLimit: read.integer('WALLET_MAX_CU_LIMIT', 400_000, 1, 1_400_000),
      maxFeeLamports: read.integer('WALLET_MAX_FEE_LAMPORTS', 500_000, 10_000, 1_000_000_000),
      maxInstructions: read.integer('WALLET_MAX_INSTRUCTIONS', 12, 1, 64),
      signRateLimitPerMinute: read.integer('WALLET_SIGN_RATE_LIMIT_PER_MINUTE', 120, 0, 1_000_000),
      sandboxSponsorLamports: read.integer('SANDBOX_SPONSOR_LAMPORTS', 100_000_000_000, 1, Number.MAX_SAFE_INTEGER),
      keyCacheSeconds: read.integer('WALLET_KEY_CACHE_SECONDS', 60, 0, 3600),
    },
  };

  if (decimal(config.feeTiers.maxMerchantFeePercentage).gte(1)) {
    problems.push('MERCHANT_FEE_MAX_PERCENTAGE must be a fraction below 1 (0.1 = 10 %)');
  }
  if (!pixText(config.pix.merchantName, MAX_MERCHANT_NAME)) {
    problems.push('PIX_MERCHANT_NAME must contain letters or digits (BR Codes carry uppercase ASCII only)');
  }
  if (!pixText(config.pix.merchantCity, MAX_MERCHANT_CITY)) {
    problems.push('PIX_MERCHANT_CITY must contain letters or digits (BR Codes carry uppercase ASCII only)');
  }
  const receivingKey = normalizedPixKey(config.pix.receivingKey);
  if (receivingKey === undefined) {
    problems.push('PIX_RECEIVING_KEY must be a PIX key: CPF, CNPJ, e-mail, +55 phone or random key (UUID)');
  } else {
    config.pix.receivingKey = receivingKey;
  }
  if (decimal(config.sandbox.usdcBrlRate).lte(0)) problems.push('SANDBOX_USDC_BRL_RATE must be positive');
  if (!/^[a-z][A-Za-z0-9]{0,31}$/.test(config.pixProvider)) {
    problems.push(`PIX_PROVIDER must be an identifier starting with a lowercase letter (got "${config.pixProvider}")`);
  }
  if (config.webhooks.claimLeaseMs < config.webhooks.timeoutMs + 5000) {
    problems.push('WEBHOOK_CLAIM_LEASE_MS must exceed WEBHOOK_TIMEOUT_MS by at least 5000 (a lease must outlast its attempt)');
  }
  if (nodeEnv === 'production') {
    // Generated development keys live in one data directory; several production processes
    // must share the same keys, so production requires them explicitly.
    if (!config.jwt.privateKeyPem) problems.push('JWT_PRIVATE_KEY is required when NODE_ENV=production');
    if (!config.apiSecretPepper) problems.push('API_SECRET_PEPPER is required when NODE_ENV=production');
    if (!config.webhookSecretKey) problems.push('WEBHOOK_SECRET_KEY is required when NODE_ENV=production');
    if (!config.walletKek) problems.push('WALLET_KEK is required when NODE_ENV=production');
    if (!config.sponsorPrivateKey) problems.push('SPONSOR_PRIVATE_KEY is required when NODE_ENV=production');
    if (!config.databaseUrl) problems.push('DATABASE_URL is required when NODE_ENV=production (the embedded database is not durable)');
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === '' ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
      return fallback;
    }
    return parsed;
  }

  /** Comma-separated integers, e.g. "5,300,1800". */
  integerList(name: string, fallback: number[], min: number, max: number, maxItems: number): number[] {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const items = value.split(',').map((item) => item.trim());
    const parsed = items.map((item) => (/^\d+$/.test(item) ? Number(item) : Number.NaN));
    if (items.length > maxItems || parsed.some((n) => !Number.isSafeInteger(n) || n < min || n > max)) {
      this.problems.push(`${name} must be a comma-separated list of at most ${maxItems} integers from ${min} to ${max} (got "${value}")`);
      return fallback;
    }
    return parsed;
  }

  optionalInteger(name: string, min: number, max: number): number | null {
    return this.raw(name) === undefined ? null : this.integer(name, 0, min, max);
  }

  /** A non-negative decimal with at most `places` decimals, kept as text (money is never a float). */
  decimal(name: string, places: number): string | null {
    const value = this.raw(name);
    if (value === undefined) return null;
    const pattern = new RegExp(`^\\d{1,15}(\\.\\d{1,${places}})?$`);
    if (!pattern.test(value)) {
      this.problems.push(`${name} must be a non-negative decimal with at most ${places} decimals (got "${value}")`);
      return null;
    }
    return value;
  }

  /** "HH:MM" in 24-hour time. */
  clockTime(name: string, fallback: string): string {
    const value = this.raw(name) ?? fallback;
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(value)) {
      this.problems.push(`${name} must be a time HH:MM (got "${value}")`);
      return fallback;
    }
    return value;
  }

  list(name: string, fallback: string): string[] {
    return (this.raw(name) ?? fallback).split(',').map((item) => item.trim()).filter(Boolean);
  }

  /** SYMBOL:decimals pairs, e.g. "USDC:6,USDT:6". */
  tokens(name: string, fallback: string): Record<string, number> {
    const tokens: Record<string, number> = {};
    for (const item of this.list(name, fallback)) {
      const match = /^([A-Z0-9]{2,10}):(\d)$/.exec(item);
      if (!match) {
        this.problems.push(`${name} must list SYMBOL:decimals pairs, e.g. USDC:6 (got "${item}")`);
        continue;
      }
      tokens[match[1]!] = Number(match[2]);
    }
    return tokens;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['true', '1', 'yes'].includes(value)) return true;
    if (['false', '0', 'no'].includes(value)) return false;
    this.problems.push(`${name} must be true or false (got "${value}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
    return fallback;
  }

  roles(name: string): Role[] {
    const value = this.raw(name);
    if (value === undefined) return [...ROLES];
    const roles = value.split(',').map((role) => role.trim());
    const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
    if (unknown.length > 0 || roles.length === 0) {
      this.problems.push(`${name} must be a comma-separated list of ${ROLES.join(', ')} (got "${value}")`);
      return [...ROLES];
    }
    return [...new Set(roles)] as Role[];
  }

  databaseUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value);
      if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('protocol');
    } catch {
      // The value may hold a password: never echo it.
      this.problems.push(`${name} must be a postgres:// or postgresql:// URL`);
      return undefined;
    }
    return value;
  }

  /** A secret is never echoed back in the message. */
  secret(name: string, minLength: number): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (value.length < minLength) {
      this.problems.push(`${name} must be at least ${minLength} characters long`);
      return undefined;
    }
    return value;
  }

  /** 32 bytes, base64 (or base64url). Never echoed. */
  key32(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (!isKey32(value)) {
      this.problems.push(`${name} must be 32 bytes, base64-encoded (e.g. openssl rand -base64 32)`);
      return undefined;
    }
    return value;
  }

  /** "version:base64key" pairs, comma-separated. Never echoed. */
  versionedKeys(name: string): Record<number, string> {
    const value = this.raw(name);
    if (value === undefined) return {};
    const keys: Record<number, string> = {};
    for (const item of value.split(',').map((part) => part.trim())) {
      const match = /^(\d{1,5}):(.+)$/.exec(item);
      if (!match || !isKey32(match[2]!) || Number(match[1]) < 1) {
        this.problems.push(`${name} must list version:key pairs, each key 32 bytes base64 (an entry is malformed)`);
        return {};
      }
      keys[Number(match[1])] = match[2]!;
    }
    return keys;
  }

  /** A Solana keypair: base58 of 64 bytes, or a JSON array of 64 byte values. Never echoed. */
  solanaKeypair(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (!keypairBytes(value)) {
      this.problems.push(`${name} must be a Solana keypair: base58 of 64 bytes, or a JSON array of 64 numbers (solana-keygen's file)`);
      return undefined;
    }
    return value;
  }

  httpUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    try {
      const url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    } catch {
      // An RPC URL often carries an API key: never echo it.
      this.problems.push(`${name} must be an http:// or https:// URL`);
      return undefined;
    }
    return value;
  }

  solanaAddresses(name: string, fallback: string[]): string[] {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const items = value.split(',').map((item) => item.trim()).filter(Boolean);
    const bad = items.filter((item) => !isSolanaAddress(item));
    if (bad.length > 0 || items.length === 0) {
      this.problems.push(`${name} must be a comma-separated list of Solana program ids (bad: ${bad.join(', ') || 'empty list'})`);
      return fallback;
    }
    return [...new Set(items)];
  }

  /** PEM from the environment; `\n` escapes are accepted so the key fits on one line. */
  pem(name: string): string | undefined {
    const value = this.raw(name)?.replace(/\\n/g, '\n');
    if (value === undefined) return undefined;
    if (!/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\s*$/.test(value)) {
      this.problems.push(`${name} must be a PKCS#8 PEM private key ("-----BEGIN PRIVATE KEY-----")`);
      return undefined;
    }
    return value;
  }
}

function isKey32(value: string): boolean {
  return /^[A-Za-z0-9+/_-]{43}=?$/.test(value) && Buffer.from(value, 'base64').length === 32;
}

/** The key in DICT form under the first type it is valid as; a key's format decides its type. */
function normalizedPixKey(key: string): string | undefined {
  const types: PixKeyType[] = ['EVP', 'EMAIL', 'PHONE', 'CPF', 'CNPJ'];
  for (const type of types) {
    const check = validatePixKey(type, key);
    if (check.ok) return check.normalized;
  }
  return undefined;
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
  /** Sandbox only: pay charges and deposit for orders older than this many seconds (0: never). */
  sandboxAutoCompleteSeconds: number;
}
