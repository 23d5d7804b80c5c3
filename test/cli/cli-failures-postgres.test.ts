/**
 * The CLI failure that needs the run's PostgreSQL (test/cli/cli-failures.test.ts holds the others).
 * Apart so that file depends on no driver and CI's PGlite pass leaves it out
 * (test/helpers/driver-independent.ts): its commands are on the embedded defaults in both passes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { testDriver } from '../helpers/database.ts';
import { runTsToEnd } from '../helpers/processes.ts';
import { expectCliFailureLine } from '../helpers/startup-failures.ts';

const MIGRATE = 'src/cli/migrate.ts';

describe.runIf(testDriver() === 'postgres')('CLI failures on PostgreSQL: one line with the fix', { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-cli-failures-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('a database that does not exist: says how to create it', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = '/no_such_database_cli_failures';
    const result = await runTsToEnd(MIGRATE, [], { DATA_DIR: dataDir, DATABASE_URL: url.toString() });
    expectCliFailureLine(result, /^migrate: database "no_such_database_cli_failures" does not exist on .*: create it \(createdb .*\) or fix DATABASE_URL$/);
  });
});
