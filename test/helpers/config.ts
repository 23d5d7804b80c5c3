/** Configuration test helpers: the problems a configuration is refused with, and production's keys. */
import { ConfigError, loadConfig } from '../../src/config.ts';

/** The lines of the ConfigError `env` is refused with; none when it loads. */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

/** Every key and the database production requires, in formats start-up accepts (not secret: tests only). */
export const PRODUCTION_KEYS = {
  DATABASE_URL: 'postgresql://exchange@db:5432/exchange',
  JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----',
  API_SECRET_PEPPER: 'p'.repeat(32),
  WEBHOOK_SECRET_KEY: 'w'.repeat(32),
  WALLET_KEK: Buffer.alloc(32, 1).toString('base64'),
  SPONSOR_PRIVATE_KEY: JSON.stringify(Array.from({ length: 64 }, (_, i) => i)),
};
