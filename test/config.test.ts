import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { readEnv, variablesOf } from '../src/config/env.ts';
import { ENV_SCHEMA, type EnvValues } from '../src/config/schema.ts';
import { configFrom } from '../src/config/settings.ts';
import { problemsOf } from './helpers/config.ts';

describe('config', () => {
  it('has working embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      adminToken: undefined,
      logLevel: 'info',
      roles: ['api', 'worker'],
      jwt: { ttlSeconds: 900, privateKeyPem: undefined },
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h:5432/db',
      ADMIN_TOKEN: 'a'.repeat(32),
      LOG_LEVEL: 'debug',
      ROLES: 'worker',
      JWT_ISSUER: 'iss',
      JWT_AUDIENCE: 'aud',
      JWT_TTL_SECONDS: '600',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://u@h:5432/db',
      logLevel: 'debug',
      roles: ['worker'],
      jwt: { issuer: 'iss', audience: 'aud', ttlSeconds: 600 },
      rateLimit: { perCredentialPerMinute: 0 },
    });
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf({ PORT: 'eighty', LOG_LEVEL: 'loud', ROLES: 'api,cron', JWT_TTL_SECONDS: '5', TRUST_PROXY: 'maybe' });
    expect(problems).toHaveLength(5);
    for (const name of ['PORT', 'LOG_LEVEL', 'ROLES', 'JWT_TTL_SECONDS', 'TRUST_PROXY']) {
      expect(problems.some((p) => p.startsWith(name))).toBe(true);
    }
  });

  it('never echoes a secret or a database password', () => {
    const problems = problemsOf({ ADMIN_TOKEN: 'short-secret', DATABASE_URL: 'mysql://user:hunter2@h/db', JWT_PRIVATE_KEY: 'not-a-pem' });
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).not.toMatch(/short-secret|hunter2|not-a-pem/);
  });

  it('takes DATABASE_DIRECT_URL and DATABASE_NAMED_STATEMENTS for PgBouncer in transaction mode, the direct and replica URLs only beside DATABASE_URL', () => {
    expect(problemsOf({ DATABASE_DIRECT_URL: 'postgresql://u@h:5432/db', DATABASE_READ_URL: 'postgresql://u@replica:5432/db' })).toEqual([
      'DATABASE_DIRECT_URL needs DATABASE_URL (it is the same PostgreSQL, without the pooler)',
      "DATABASE_READ_URL needs DATABASE_URL (it is a replica of DATABASE_URL's database)",
    ]);
    expect(problemsOf({ DATABASE_URL: 'postgresql://u@h:6432/db', DATABASE_DIRECT_URL: 'mysql://u:hunter2@h/db', DATABASE_NAMED_STATEMENTS: 'maybe' })).toEqual([
      'DATABASE_DIRECT_URL must be a postgres:// or postgresql:// URL',
      'DATABASE_NAMED_STATEMENTS must be true or false (got "maybe")',
    ]);
    const config = loadConfig({ DATABASE_URL: 'postgresql://u@h:6432/db', DATABASE_DIRECT_URL: 'postgresql://u@h:5432/db', DATABASE_NAMED_STATEMENTS: 'false' });
    expect([config.databaseDirectUrl, config.databaseNamedStatements]).toEqual(['postgresql://u@h:5432/db', false]);
    expect(loadConfig({}).databaseNamedStatements).toBe(true);
  });

  it('an unreadable certificate file: one line naming the setting and the fix (issue 40)', () => {
    const problems = problemsOf({ PIX_CLIENT_CERT: '/no/such/dir/client.pem' });
    expect(problems).toContain('PIX_CLIENT_CERT must be an X.509 certificate in PEM, or the path of a readable PEM file (check the path and its permissions)');
  });

  it('accepts a one-line PEM with \\n escapes', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEIA==\\n-----END PRIVATE KEY-----';
    expect(loadConfig({ JWT_PRIVATE_KEY: pem }).jwt.privateKeyPem).toContain('\nMC4CAQAwBQYDK2VwBCIEIA==\n');
  });

  it('production requires explicit keys and PostgreSQL (the platform keys live in the database, checked at start)', () => {
    const problems = problemsOf({ NODE_ENV: 'production', SIMULATION_MODE: 'true' });
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['JWT_PRIVATE_KEY', 'API_SECRET_PEPPER', 'WEBHOOK_SECRET_KEY', 'WALLET_KEK', 'DATABASE_URL']);
  });

  it('PUBLIC_APP_URL: as set, else the listener (localhost for a wildcard or loopback HOST, an IPv6 literal bracketed)', () => {
    expect(loadConfig({}).email.publicAppUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).email.publicAppUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::', PORT: '8080' }).email.publicAppUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '10.0.0.5', PORT: '8080' }).email.publicAppUrl).toBe('http://10.0.0.5:8080');
    expect(loadConfig({ HOST: 'fd00::5', PORT: '8080' }).email.publicAppUrl).toBe('http://[fd00::5]:8080');
    expect(loadConfig({ PORT: '8080', PUBLIC_APP_URL: 'https://pay.example.com' }).email.publicAppUrl).toBe('https://pay.example.com');
  });

  it('reads integers only from plain decimal text', () => {
    for (const bad of ['1e3', '2.5', '0x10', '+5', '5.', '.5', '1 2', 'Infinity', '99999999999999999999']) {
      expect(problemsOf({ PORT: bad }), bad).toEqual([`PORT must be an integer from 0 to 65535 (got "${bad}")`]);
    }
    expect(loadConfig({ PORT: ' 0080 ', JWT_TTL_SECONDS: '3600' })).toMatchObject({ port: 80, jwt: { ttlSeconds: 3600 } });
    expect(problemsOf({ SANDBOX_SPONSOR_LAMPORTS: '9007199254740992' })).toHaveLength(1);
    expect(loadConfig({ SANDBOX_SPONSOR_LAMPORTS: '9007199254740991' }).wallets.sandboxSponsorLamports).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('reads booleans as true/false, 1/0 or yes/no in any case', () => {
    expect(loadConfig({ SANDBOX_ENABLED: 'YES', SETTLEMENT_ENABLED: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'True' })).toMatchObject({
      sandboxEnabled: true,
      settlements: { enabled: false },
      webhooks: { allowPrivateTargets: true },
    });
    expect(problemsOf({ SETTLEMENT_ENABLED: 'On' })).toEqual(['SETTLEMENT_ENABLED must be true or false (got "on")']);
  });

  it('keeps money as decimal text, never a float', () => {
    const config = loadConfig({ ORDER_MIN_AMOUNT_BRL: '10.50', ORDER_MAX_AMOUNT_BRL: '12345678901.10', RECEIVER_DEFAULT_DAILY_LIMIT_BRL: '0.10', MERCHANT_FEE_MAX_PERCENTAGE: '0.050000' });
    expect(config.orders).toMatchObject({ minAmountBrl: '10.50', maxAmountBrl: '12345678901.10' });
    expect(config.receivers.defaultDailyLimitBrl).toBe('0.10');
    expect(config.feeTiers.maxMerchantFeePercentage).toBe('0.050000');
    expect(loadConfig({}).receivers).toMatchObject({ defaultDailyLimitBrl: null, defaultDailyTransactionLimit: null });
    const problems = problemsOf({ ORDER_MIN_AMOUNT_BRL: '1.005', ORDER_MAX_AMOUNT_BRL: '1e5', MERCHANT_FEE_MAX_PERCENTAGE: '1', SANDBOX_USDC_BRL_RATE: '0.00' });
    expect(problems).toEqual([
      'ORDER_MIN_AMOUNT_BRL must be a non-negative decimal with at most 2 decimals (got "1.005")',
      'ORDER_MAX_AMOUNT_BRL must be a non-negative decimal with at most 2 decimals (got "1e5")',
      'SANDBOX_USDC_BRL_RATE must be positive',
      'MERCHANT_FEE_MAX_PERCENTAGE must be a fraction below 1 (0.1 = 10 %)',
    ]);
  });

  it('sandbox prices per token: SANDBOX_TOKEN_BRL_RATES, SANDBOX_USDC_BRL_RATE still USDC\'s unless the list names it, every supported token priced', () => {
    expect(loadConfig({}).sandbox.tokenBrlRates).toEqual({ USDC: '5.40' });
    expect(loadConfig({ SANDBOX_USDC_BRL_RATE: '5.1' }).sandbox.tokenBrlRates).toEqual({ USDC: '5.1' });
    const three = { SUPPORTED_TOKENS: 'USDC:6,USDT:6,PYUSD:6', SANDBOX_TOKEN_BRL_RATES: 'USDT:5.41, PYUSD:5.39' };
    expect(loadConfig({ ...three, SANDBOX_USDC_BRL_RATE: '5.2' }).sandbox.tokenBrlRates).toEqual({ USDC: '5.2', USDT: '5.41', PYUSD: '5.39' });
    expect(loadConfig({ ...three, SANDBOX_TOKEN_BRL_RATES: 'USDC:5.40,USDT:5.41,PYUSD:5.39', SANDBOX_USDC_BRL_RATE: '9' }).sandbox.tokenBrlRates.USDC).toBe('5.40');
    expect(problemsOf({ SUPPORTED_TOKENS: 'USDC:6,USDT:6,PYUSD:6', SANDBOX_TOKEN_BRL_RATES: 'USDT:5.41' })).toEqual([
      'SANDBOX_TOKEN_BRL_RATES must give a rate for every supported token when PRICE_SOURCE=sandbox (missing: PYUSD)',
    ]);
    expect(problemsOf({ SANDBOX_TOKEN_BRL_RATES: 'USDT:0,PYUSD:1.123456789,usdt:5,EURC' })).toEqual([
      'SANDBOX_TOKEN_BRL_RATES must list SYMBOL:rate pairs with positive rates, e.g. USDC:5.40,USDT:5.41,PYUSD:5.39 (bad: USDT:0, PYUSD:1.123456789, usdt:5, EURC)',
    ]);
    // The http source answers per symbol from its document: no sandbox rate is asked for.
    expect(loadConfig({ SUPPORTED_TOKENS: 'USDC:6,USDT:6', PRICE_SOURCE: 'http', PRICE_URL: 'http://127.0.0.1:9/prices' }).orders.tokens).toEqual({ USDC: 6, USDT: 6 });
  });

  it('reads lists: comma-separated, trimmed, one line for all the bad items', () => {
    expect(loadConfig({ SUPPORTED_TOKENS: 'USDC:6, USDT:6,', SANDBOX_TOKEN_BRL_RATES: 'USDT:5.41', SUPPORTED_CHAINS: ' solana ,,' }).orders).toMatchObject({ tokens: { USDC: 6, USDT: 6 }, chains: ['solana'] });
    expect(loadConfig({ ROLES: 'worker,api,worker' }).roles).toEqual(['worker', 'api']);
    expect(problemsOf({ SUPPORTED_TOKENS: 'USDC:6,usdt:6,EURC' })).toEqual(['SUPPORTED_TOKENS must list SYMBOL:decimals pairs, e.g. USDC:6 (bad: usdt:6, EURC)']);
    expect(problemsOf({ WALLET_ALLOWED_PROGRAMS: ' , ' })).toEqual(['WALLET_ALLOWED_PROGRAMS must be a comma-separated list of Solana program ids (bad: empty list)']);
    expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: '5,,6' })).toHaveLength(1);
    expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: Array(21).fill('1').join(',') })).toHaveLength(1);
    expect(problemsOf({ ROLES: 'api,' })).toEqual(['ROLES must be a comma-separated list of api, worker (got "api,")']);
    const kek = Buffer.alloc(32, 3).toString('base64');
    expect(loadConfig({ WALLET_KEK_PREVIOUS: `1:${kek}, 7:${kek}` }).walletKekPrevious).toEqual({ 1: kek, 7: kek });
    expect(problemsOf({ WALLET_KEK_PREVIOUS: `0:${kek}` })).toEqual(['WALLET_KEK_PREVIOUS must list version:key pairs, each key 32 bytes base64 (an entry is malformed)']);
  });

  it('checks across variables after each variable alone, reading a bad one as unset', () => {
    expect(problemsOf({ WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_CLAIM_LEASE_MS: '64999' })).toEqual([
      'WEBHOOK_CLAIM_LEASE_MS must exceed WEBHOOK_TIMEOUT_MS by at least 5000 (a lease must outlast its attempt)',
    ]);
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_CLAIM_LEASE_MS: '65000' }).webhooks.claimLeaseMs).toBe(65000);
    // The refused timeout reads as its default (10 s), which the default lease outlasts.
    expect(problemsOf({ WEBHOOK_TIMEOUT_MS: '600000' })).toEqual(['WEBHOOK_TIMEOUT_MS must be an integer from 100 to 60000 (got "600000")']);
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({ sandboxEnabled: true, webhooks: { allowHttp: true } });
  });

  it('reads the price source: http needs its URL (https in production), the spread is a fraction below 0.5', () => {
    expect(loadConfig({}).prices).toEqual({ source: 'sandbox', url: undefined, maxAgeMs: 60_000, timeoutMs: 5000, spread: '0' });
    const http = loadConfig({ PRICE_SOURCE: 'http', PRICE_URL: 'http://127.0.0.1:9/prices', PRICE_MAX_AGE_MS: '15000', PRICE_SPREAD: '0.0125' });
    expect(http.prices).toEqual({ source: 'http', url: 'http://127.0.0.1:9/prices', maxAgeMs: 15_000, timeoutMs: 5000, spread: '0.0125' });
    expect(problemsOf({ PRICE_SOURCE: 'http' })).toEqual(['PRICE_URL is required when PRICE_SOURCE=http']);
    expect(problemsOf({ PRICE_SOURCE: 'http', PRICE_URL: 'ftp://user:hunter2@prices' })).toEqual([
      'PRICE_URL must be an https:// URL (http:// outside production)',
      'PRICE_URL is required when PRICE_SOURCE=http',
    ]);
    expect(problemsOf({ PRICE_SOURCE: 'feed', PRICE_SPREAD: '0.5', PRICE_MAX_AGE_MS: '10' })).toEqual([
      'PRICE_SOURCE must be one of sandbox, http (got "feed")',
      'PRICE_MAX_AGE_MS must be an integer from 1000 to 3600000 (got "10")',
      'PRICE_SPREAD must be a fraction below 0.5 (0.01 = 1 %)',
    ]);
    expect(problemsOf({ PRICE_SPREAD: '1e-3' })).toEqual(['PRICE_SPREAD must be a non-negative decimal with at most 6 decimals (got "1e-3")']);
    const production = problemsOf({ NODE_ENV: 'production', PRICE_SOURCE: 'http', PRICE_URL: 'http://prices.internal/v1' });
    expect(production).toContain('PRICE_URL must be https:// when NODE_ENV=production');
  });

  it('never quotes a value back for the variables that may hold a secret', () => {
    const secretive = variablesOf(ENV_SCHEMA).filter(([, schema]) => schema.quote === 'never');
    expect(secretive.map(([name]) => name)).toEqual(expect.arrayContaining(['ADMIN_TOKEN', 'DATABASE_URL', 'JWT_PRIVATE_KEY', 'WALLET_KEK', 'SPONSOR_PRIVATE_KEY', 'SOLANA_RPC_URL']));
    const env = Object.fromEntries(secretive.map(([name]) => [name, 'ftp://leaked:sentinel@x']));
    const problems = problemsOf(env);
    expect(problems).toHaveLength(secretive.length);
    expect(problems.join('\n')).not.toMatch(/leaked|sentinel/);
  });
});

describe('the configuration schema', () => {
  const variables = variablesOf(ENV_SCHEMA);

  it('describes every variable and gives it a valid default, unless it is optional', () => {
    for (const [name, schema] of variables) {
      expect(schema.description, name).toMatch(/\S{3}/);
      expect(schema.errorMessage, name).toMatch(/^must /);
      if (schema.default === undefined) expect(Type.IsOptional(schema), `${name} has neither a default nor Type.Optional`).toBe(true);
      else expect(Value.Check(schema, schema.default), `${name}'s default`).toBe(true);
    }
  });

  // README's Configuration table: "| `A` / `B` | `a` / `b` | meaning |".
  const rows = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    .split('## Configuration')[1]!
    .split('\n## ')[0]!
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split(' | '));
  const documented = new Map<string, string>();
  for (const [names, defaults] of rows) {
    const list = names!.slice(2).split(' / ').map((name) => name.replaceAll('`', ''));
    const values = defaults!.split(' / ');
    list.forEach((name, i) => documented.set(name, (values.length === list.length ? values[i] : defaults)!));
  }

  it('feeds every variable into the configuration', () => {
    // Every optional variable given (a placeholder does: nothing here parses it), so each branch reads its variables.
    const { values } = readEnv(ENV_SCHEMA, { PIX_PROVIDER: 'api-pix' });
    const read = new Set<string>();
    const env = new Proxy(values, {
      get: (target, name: string) => {
        read.add(name);
        return target[name as keyof EnvValues] ?? 'https://psp.example/v2';
      },
    });
    configFrom(env);
    expect(variables.map(([name]) => name).filter((name) => !read.has(name))).toEqual([]);
  });

  it("lists the same variables as README's Configuration table", () => {
    expect([...documented.keys()].sort()).toEqual(variables.map(([name]) => name).sort());
  });

  it('has the defaults README states', () => {
    for (const [name, schema] of variables) {
      const stated = /^`([^`]*)`/.exec(documented.get(name) ?? '')?.[1];
      if (stated === undefined || schema.default === undefined) continue;
      expect([schema.default].flat().join(','), name).toBe(stated);
    }
  });
});

