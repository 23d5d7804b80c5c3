/**
 * The start-up failures that need the run's PostgreSQL (test/e2e/startup-failures.test.ts holds the
 * others). Apart so that file depends on no driver and CI's PGlite pass leaves it out
 * (test/helpers/driver-independent.ts): its services are on the embedded defaults in both passes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPostgresDatabase, testDriver } from '../helpers/database.ts';
import { freePort, startService } from '../helpers/processes.ts';
import { expectOneLine, productionKeys, startToExit } from '../helpers/startup-failures.ts';

describe.runIf(testDriver() === 'postgres')('npm start on PostgreSQL: known start-up failures', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-startup-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const start = (env: Record<string, string>) => startToExit(dataDir, env);

  it('a database that does not exist: one line saying how to create it', async () => {
    const result = await start({ PORT: String(await freePort()), DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/no_such_database_c_contract' });
    expectOneLine(result, /^fatal: database "no_such_database_c_contract" does not exist on 127\.0\.0\.1:5432: create it \(createdb /);
  });

  it('production with SIMULATION_MODE=true starts, warns, and /readyz says so; SPONSOR_PRIVATE_KEY is imported, the treasury created, neither printed; a wrong or missing KEK is one line after', { timeout: 90_000 }, async () => {
    const database = (await migratedPostgresDatabase())!;
    const keys = productionKeys();
    const service = await startService(await mkdtemp(path.join(os.tmpdir(), 'exchange-simulated-')), { NODE_ENV: 'production', SIMULATION_MODE: 'true', DATABASE_URL: database.url, ...keys });
    try {
      expect(await (await fetch(`${service.base}/readyz`)).json()).toMatchObject({ status: 'ready', simulation: true, ordersRefused: [] });
      expect(service.output()).toMatch(/"level":40[^\n]*SIMULATION_MODE=true: the PSP, the chain and the price are all simulated/);
      expect(service.output()).toMatch(/"purpose":"SPONSOR","address":"[1-9A-HJ-NP-Za-km-z]{32,44}"[^\n]*SPONSOR_PRIVATE_KEY imported and sealed in the database/);
      expect(service.output()).toMatch(/"purpose":"TREASURY","address":"[1-9A-HJ-NP-Za-km-z]{32,44}"[^\n]*platform key created and sealed in the database/);
      expect(service.output()).not.toContain(keys.SPONSOR_PRIVATE_KEY);
      expect(await service.stop()).toBe(0);

      // Issue 40: the keys are sealed under keys.WALLET_KEK (version 1). Another KEK, or a new
      // version without the old one in WALLET_KEK_PREVIOUS (a rotation half done): one line each.
      const again = { ...keys, NODE_ENV: 'production', SIMULATION_MODE: 'true', DATABASE_URL: database.url, PORT: String(await freePort()) };
      const wrong = await start({ ...again, WALLET_KEK: randomBytes(32).toString('base64') });
      expectOneLine(wrong, /^fatal: the (TREASURY|SPONSOR) platform key does not open under WALLET_KEK \(KEK version 1\): .*the KEK the database was sealed with/);
      const rotated = await start({ ...again, WALLET_KEK: randomBytes(32).toString('base64'), WALLET_KEK_VERSION: '2' });
      expectOneLine(rotated, /^fatal: the (TREASURY|SPONSOR) platform key is sealed under KEK version 1, which neither WALLET_KEK \(version 2\) nor WALLET_KEK_PREVIOUS holds: add "1:</);
      expect(`${wrong.stderr}${rotated.stderr}`).not.toContain(keys.WALLET_KEK);
    } finally {
      await service.stop();
      await rm(service.dataDir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
