/**
 * `npm run -s admin -- generate-keys` prints every key production requires, in the formats
 * start-up accepts: fed back as the environment of a production configuration, they load without
 * a complaint and are the values the service then uses.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { runTsToEnd } from '../helpers/processes.ts';

/** `NAME='value'` lines as an environment, as `set -a; . ./file` would read them. */
const envOf = (output: string) =>
  Object.fromEntries(
    output
      .split('\n')
      .filter((line) => /^[A-Z_]+='/.test(line))
      .map((line) => {
        const [, name, value] = /^([A-Z_]+)='(.*)'$/.exec(line)!;
        return [name!, value!];
      }),
  );

describe('npm run admin -- generate-keys', () => {
  it('prints every production key, valid, and different on each run, without a database', async () => {
    const run = async () => {
      const result = await runTsToEnd('src/cli/admin.ts', ['generate-keys'], { DATA_DIR: '/nonexistent', DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('run `npm run admin -- create-platform-keys` once');
      return envOf(result.stdout);
    };
    const keys = await run();
    // No Solana key: the treasury and the sponsor are sealed in the database (admin create-platform-keys).
    expect(Object.keys(keys).sort()).toEqual(['ADMIN_TOKEN', 'API_SECRET_PEPPER', 'JWT_PRIVATE_KEY', 'METRICS_TOKEN', 'WALLET_KEK', 'WEBHOOK_SECRET_KEY']);

    // SIMULATION_MODE: production refuses the sandbox PSP, chain and price this test has.
    const config = loadConfig({ NODE_ENV: 'production', SIMULATION_MODE: 'true', DATABASE_URL: 'postgresql://exchange@db:5432/exchange', ...keys });
    expect(config.jwt.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----$/);
    expect(config.walletKek).toBe(keys.WALLET_KEK);
    expect(config.sponsorPrivateKey).toBeUndefined();
    expect(config.metricsToken).toBe(keys.METRICS_TOKEN);
    // Without them, production refuses to start: the command prints exactly what it needs.
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://exchange@db:5432/exchange' })).toThrow(/JWT_PRIVATE_KEY/);

    const again = await run();
    for (const name of Object.keys(keys)) expect(again[name], name).not.toBe(keys[name]);
  });
});
