/**
 * The vitest configuration Stryker runs (stryker.config.mjs, docs/architecture/mutation-testing.md):
 * the project's, but only the test files that hold the files being mutated (MUTATION_TESTS, set by
 * the Stryker config from its --mutate list), and with isolation on. Under the project's
 * `isolate: false` a module is evaluated once per worker, so Stryker's module-level mutants (a
 * constant table such as the MED state machine's) were never applied and reported as survived.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

const tests = (process.env.MUTATION_TESTS ?? '').split(',').filter(Boolean);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: tests.length > 0 ? tests : ['test/lib/money.test.ts'],
    isolate: true,
    maxWorkers: 1,
  },
});
