/**
 * Every setting of the service, read from the environment and validated once at start-up.
 * A bad value stops the process with a message naming the variable; nothing else reads process.env.
 */
import { type Env, readEnv } from './env.ts';
import { ENV_SCHEMA, type EnvValues } from './schema.ts';
import { simulationRequirements } from './simulation.ts';
import { API_PIX_REQUIRED, type Config, configFrom, type WebhookSettings } from './settings.ts';

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
  const config = configFrom(values);
  problems.push(...leaseOutlastsAttempt(config.webhooks), ...apiPixRequirements(values), ...priceSourceRequirements(values), ...sandboxRateRequirements(values), ...chainRequirements(values), ...emailRequirements(values), ...databaseRequirements(values), ...productionRequirements(config), ...simulationRequirements(values));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** PIX_PROVIDER=api-pix needs every setting of the PSP (a bad one was already reported and reads as unset). */
function apiPixRequirements(env: EnvValues): string[] {
  if (env.PIX_PROVIDER !== 'api-pix') return [];
  const plainCallback = env.NODE_ENV === 'production' && env.PIX_WEBHOOK_PUBLIC_URL?.startsWith('http:') ? ['PIX_WEBHOOK_PUBLIC_URL must be https:// when NODE_ENV=production'] : [];
  return plainCallback.concat(API_PIX_REQUIRED.filter((name) => env[name] === undefined).map((name) => `${name} is required when PIX_PROVIDER=api-pix`));
}

/** PRICE_SOURCE=http needs its URL, https:// in production (a bad one was already reported and reads as unset). */
function priceSourceRequirements(env: EnvValues): string[] {
  if (env.PRICE_SOURCE !== 'http') return [];
  if (env.PRICE_URL === undefined) return ['PRICE_URL is required when PRICE_SOURCE=http'];
  return env.NODE_ENV === 'production' && env.PRICE_URL.startsWith('http:') ? ['PRICE_URL must be https:// when NODE_ENV=production'] : [];
}

/** The sandbox price source answers only the tokens it has a rate for: every supported token needs one. */
function sandboxRateRequirements(env: EnvValues): string[] {
  if (env.PRICE_SOURCE !== 'sandbox') return [];
  const rates: Record<string, string> = { USDC: env.SANDBOX_USDC_BRL_RATE, ...env.SANDBOX_TOKEN_BRL_RATES };
  const missing = Object.keys(env.SUPPORTED_TOKENS).filter((symbol) => rates[symbol] === undefined);
  return missing.length > 0 ? [`SANDBOX_TOKEN_BRL_RATES must give a rate for every supported token when PRICE_SOURCE=sandbox (missing: ${missing.join(', ')})`] : [];
}

/** A direct URL (the same server without its pooler) and a replica are meaningless without DATABASE_URL. */
function databaseRequirements(env: EnvValues): string[] {
  if (env.DATABASE_URL !== undefined) return [];
  return [
    ...(env.DATABASE_DIRECT_URL !== undefined ? ['DATABASE_DIRECT_URL needs DATABASE_URL (it is the same PostgreSQL, without the pooler)'] : []),
    ...(env.DATABASE_READ_URL !== undefined ? ["DATABASE_READ_URL needs DATABASE_URL (it is a replica of DATABASE_URL's database)"] : []),
  ];
}

/** EMAIL_PROVIDER=smtp needs its server. */
function emailRequirements(env: EnvValues): string[] {
  return env.EMAIL_PROVIDER === 'smtp' && env.SMTP_URL === undefined ? ['SMTP_URL is required when EMAIL_PROVIDER=smtp'] : [];
}

/** CHAIN_PROVIDER=solana-rpc needs the node and the mint of every supported token. */
function chainRequirements(env: EnvValues): string[] {
  if (env.CHAIN_PROVIDER !== 'solana-rpc') return [];
  const mints = new Set(env.CHAIN_TOKEN_MINTS.map((pair) => pair.split(':')[0]));
  const missing = Object.keys(env.SUPPORTED_TOKENS).filter((symbol) => !mints.has(symbol));
  return [
    ...(env.SOLANA_RPC_URL === undefined ? ['SOLANA_RPC_URL is required when CHAIN_PROVIDER=solana-rpc'] : []),
    ...(missing.length > 0 ? [`CHAIN_TOKEN_MINTS must name the mint of every supported token when CHAIN_PROVIDER=solana-rpc (missing: ${missing.join(', ')})`] : []),
  ];
}

/** A delivery's lease must outlast its attempt, or a live attempt's delivery is claimed again. */
function leaseOutlastsAttempt(webhooks: WebhookSettings): string[] {
  return webhooks.claimLeaseMs < webhooks.timeoutMs + 5000
    ? ['WEBHOOK_CLAIM_LEASE_MS must exceed WEBHOOK_TIMEOUT_MS by at least 5000 (a lease must outlast its attempt)']
    : [];
}

/**
 * Generated development keys live in one data directory; several production processes must share
 * the same keys, so production requires them explicitly (and a durable database). The platform's
 * Solana keys are checked at start, in the database (src/modules/platform-keys/service.ts).
 */
function productionRequirements(config: Config): string[] {
  if (config.nodeEnv !== 'production') return [];
  const required: [string, unknown, string?][] = [
    ['JWT_PRIVATE_KEY', config.jwt.privateKeyPem],
    ['API_SECRET_PEPPER', config.apiSecretPepper],
    ['WEBHOOK_SECRET_KEY', config.webhookSecretKey],
    ['WALLET_KEK', config.walletKek],
    ['DATABASE_URL', config.databaseUrl, ' (the embedded database is not durable)'],
  ];
  return required.filter(([, value]) => !value).map(([name, , why = '']) => `${name} is required when NODE_ENV=production${why}`);
}
