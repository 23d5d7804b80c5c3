import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Test files share their worker process (each still builds its own app and database): a fresh
    // process per file cost the PGlite run ~4 of its 10 minutes (WASM and module loading, 124 times).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests log nothing unless asked; a failing test prints its own context.
    silent: 'passed-only',
  },
});
