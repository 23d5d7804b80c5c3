import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

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

  it('accepts a one-line PEM with \\n escapes', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEIA==\\n-----END PRIVATE KEY-----';
    expect(loadConfig({ JWT_PRIVATE_KEY: pem }).jwt.privateKeyPem).toContain('\nMC4CAQAwBQYDK2VwBCIEIA==\n');
  });

  it('production requires explicit keys and PostgreSQL', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['JWT_PRIVATE_KEY', 'API_SECRET_PEPPER', 'WEBHOOK_SECRET_KEY', 'WALLET_KEK', 'SPONSOR_PRIVATE_KEY', 'DATABASE_URL']);
  });
});
