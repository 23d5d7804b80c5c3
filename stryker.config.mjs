/**
 * Mutation testing of the money and control files (docs/architecture/mutation-testing.md):
 *
 *   npm run mutation                                          every file below (hours: avoid)
 *   npm run mutation -- --mutate src/modules/wallets/fee.ts   one file, with only its tests
 *
 * Each mutated file is run against the test files that hold it (TARGETS), never the whole suite:
 * vitest's related mode would pick every HTTP test (they all import the app). One process at a
 * time, with the TypeScript checker (a mutant that does not typecheck is no test's to kill).
 * Decimal boundaries, which Stryker does not mutate, are mutated by scripts/mutation-by-hand.ts.
 */
import process from 'node:process';

/** @type {Record<string, string[]>} mutated file → the test files that hold it */
const TARGETS = {
  'src/lib/money.ts': ['test/lib/money.test.ts', 'test/lib/decimal-boundaries.test.ts'],
  'src/lib/pricing.ts': ['test/lib/pricing.test.ts', 'test/lib/decimal-boundaries.test.ts'],
  'src/lib/siws.ts': ['test/lib/siws.test.ts'],
  'src/modules/disputes/state-machine.ts': ['test/modules/disputes/decided-after-defense.test.ts', 'test/modules/disputes/disputes.test.ts'],
  'src/modules/treasury/rules.ts': ['test/modules/treasury/rules.test.ts', 'test/modules/treasury/liquidity-snapshot.test.ts'],
  'src/modules/treasury/liquidity.ts': ['test/modules/treasury/liquidity-snapshot.test.ts', 'test/modules/orders/treasury-liquidity.test.ts'],
  'src/modules/wallets/fee.ts': ['test/modules/wallets/units.test.ts', 'test/modules/wallets/inspect-edges.test.ts', 'test/modules/wallets/fee-bounds.test.ts'],
  'src/modules/wallets/sponsor-budget.ts': ['test/modules/wallets/fee-bounds.test.ts', 'test/modules/wallets/sponsor-budget.test.ts'],
  'src/modules/approvals/actions.ts': ['test/modules/approvals/action-params.test.ts', 'test/modules/approvals/four-eyes.test.ts'],
  'src/modules/approvals/service.ts': ['test/modules/approvals/action-params.test.ts', 'test/modules/approvals/four-eyes.test.ts'],
  'src/modules/approvals/service-account-actions.ts': ['test/modules/operators/service-accounts-approved.test.ts'],
  'src/modules/orders/lifecycle/deposit-terms.ts': ['test/modules/orders/deposit-terms.test.ts'],
  'src/modules/orders/lifecycle/payer-rules.ts': ['test/modules/orders/payer-policy.test.ts'],
  'src/modules/orders/lifecycle/arrival-time.ts': ['test/modules/orders/paid-after-expiry.test.ts'],
};

const flag = process.argv.indexOf('--mutate');
const mutated = flag > 0 ? process.argv[flag + 1].split(',').map((file) => file.replace(/:.*$/, '')) : Object.keys(TARGETS);
const unknown = mutated.filter((file) => !TARGETS[file]);
if (unknown.length > 0) throw new Error(`stryker.config.mjs: no tests listed for ${unknown.join(', ')}; add the file to TARGETS`);
// Read by vitest.mutation.config.ts in Stryker's test-runner processes (they inherit the environment).
process.env.MUTATION_TESTS = [...new Set(mutated.flatMap((file) => TARGETS[file]))].join(',');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: Object.keys(TARGETS),
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  coverageAnalysis: 'perTest',
  // The machine is shared: one test process, one checker.
  concurrency: 1,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['reports', 'web/dist', 'bench/results', 'data', 'coverage', 'test-results'],
  cleanTempDir: 'always',
};
