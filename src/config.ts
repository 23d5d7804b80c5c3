/**
 * Every setting of the service, read from the environment and validated once at start-up.
 * A bad value stops the process with a message naming the variable; nothing else reads process.env.
 */
import path from 'node:path';

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
}

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
  };

  if (nodeEnv === 'production') {
    // Generated development keys live in one data directory; several production processes
    // must share the same keys, so production requires them explicitly.
    if (!config.jwt.privateKeyPem) problems.push('JWT_PRIVATE_KEY is required when NODE_ENV=production');
    if (!config.apiSecretPepper) problems.push('API_SECRET_PEPPER is required when NODE_ENV=production');
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
