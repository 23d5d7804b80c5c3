import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { driverIndependentTests } from './test/helpers/driver-independent.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CI's second pass (PGlite after PostgreSQL) leaves out the files no driver can change.
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.SECOND_DRIVER_PASS ? driverIndependentTests(import.meta.dirname) : []),
      // And the two heaviest CLI files: on PGlite each command they run opens the embedded database
      // in its own process (3-5 s of CPU each, ~160 s of the second pass). What a command does is
      // the services' SQL, held on both drivers by their own tests; the CLI on the embedded
      // database stays covered by report-cli and rotate-secrets-cli.
      ...(process.env.SECOND_DRIVER_PASS ? ['test/cli/admin-cli.test.ts', 'test/cli/platform-keys-cli.test.ts'] : []),
      // `npm run test:quick`, a developer's inner loop: no browser, no child processes, no migrations walk.
      ...(process.env.TEST_QUICK ? ['test/browser/**', 'test/e2e/**', 'test/cli/**', 'test/sdk/**', 'test/tools/chain-simulator-process.test.ts', '**/*multi-process*.test.ts', 'test/db/migrations.test.ts'] : []),
    ],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/cheap-passwords.ts'],
    pool: 'forks',
    // Test files share their worker process (each still builds its own app and database): a fresh
    // process per file cost the PGlite run ~4 of its 10 minutes (WASM and module loading, 124 times).
    isolate: false,
    // vitest's default is one worker per core but one: a single worker on a 2-core machine, where
    // much test time is spent waiting on PostgreSQL, child processes, Chromium and timers. Two
    // workers there took the PostgreSQL pass from ~580 s to ~270 s and the PGlite pass from ~470 s
    // to ~250 s; later, with more tests, three took the PostgreSQL pass from 765-890 s to 559 s and
    // the PGlite pass from 199-253 s to 187 s (2026-12-06: one file waits while the others work).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests log nothing unless asked; a failing test prints its own context.
    silent: 'passed-only',
  },
});
