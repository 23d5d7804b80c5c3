/**
 * The layer rules of docs/architecture/overview.md, checked by `npm run lint:deps` in CI.
 * Type-only imports count: a type is a dependency on the module that owns it.
 */
const own = '^src/';

export default {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Folders depend on each other one way only.',
      severity: 'error',
      scope: 'folder',
      from: { path: own },
      to: { circular: true },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      from: { path: own },
      to: { circular: true },
    },
    {
      name: 'lib-imports-only-lib',
      comment: 'src/lib holds pure helpers: nothing of the service beneath them.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: own, pathNot: '^src/lib/' },
    },
    {
      name: 'kernel-imports-only-lib',
      comment: 'The error catalogue is the floor every layer stands on.',
      severity: 'error',
      from: { path: '^src/errors\\.ts$' },
      to: { path: own, pathNot: '^src/lib/' },
    },
    {
      name: 'config-imports-only-lib',
      comment: 'Settings are read before anything else exists; they depend on pure helpers only.',
      severity: 'error',
      from: { path: '^src/config(\\.ts$|/)' },
      to: { path: own, pathNot: ['^src/config(\\.ts$|/)', '^src/lib/'] },
    },
    {
      name: 'db-imports-only-lib-and-kernel',
      comment: 'The database layer knows no module, no HTTP, no configuration.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: own, pathNot: ['^src/db/', '^src/lib/', '^src/errors\\.ts$'] },
    },
    {
      name: 'platform-imports-no-module-http-or-config',
      comment:
        'Cross-cutting machinery (outbox, signals, leases, lanes, batch writer, worker runtime, idempotency, audit recording) serves the modules; it knows none of them, no HTTP and no configuration.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: own, pathNot: ['^src/platform/', '^src/db/', '^src/lib/', '^src/errors\\.ts$'] },
    },
    {
      name: 'modules-describe-jobs-not-run-them',
      comment: 'A module hands the worker a WorkerJob; only the composition (main.ts) starts the worker runtime.',
      severity: 'error',
      from: { path: '^src/(modules|http|adapters)/' },
      to: { path: '^src/platform/worker\\.ts$' },
    },
    {
      name: 'adapters-import-no-module-or-http',
      comment: 'External systems sit behind ports; they serve the modules and never call back up.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: ['^src/modules/', '^src/http/', '^src/(app|services|jobs|main|runtime-config)\\.ts$'] },
    },
    {
      name: 'adapters-take-settings',
      comment: 'An adapter gets its settings passed in: it may name their types (config/settings.ts), never read the configuration.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: { path: '^src/config(\\.ts$|/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'http-imports-no-module',
      comment: 'Cross-cutting HTTP plumbing is below the modules: modules use it, never the reverse.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: ['^src/modules/', '^src/config/', '^src/(app|services|jobs|main|config|runtime-config)\\.ts$'] },
    },
    {
      name: 'modules-do-not-reach-the-runtime',
      comment: 'Modules are wired by the composition root; they never import it or the process roles.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/(app|services|jobs|main)\\.ts$' },
    },
    {
      name: 'orders-is-a-leaf',
      comment: 'Ledger, receivers and webhooks serve orders; they import nothing of it.',
      severity: 'error',
      from: { path: '^src/modules/(ledger|receivers|webhooks)/' },
      to: { path: '^src/modules/orders/' },
    },
    {
      name: 'webhooks-import-no-emitter',
      comment: 'The catalog is assembled by the composition root from each module’s events.',
      severity: 'error',
      from: { path: '^src/modules/webhooks/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/webhooks/' },
    },
    {
      name: 'audit-imports-no-module',
      comment: 'Reading the audit log (admin routes, export) knows no other module; writing an entry is platform/audit/.',
      severity: 'error',
      from: { path: '^src/modules/audit/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/audit/' },
    },
    {
      name: 'sdk-stands-alone',
      comment: 'The SDK is a client of the API, not of our code: it knows the service only through docs/openapi.json.',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { path: ['^src/', '^test/', '^scripts/', '^tools/'] },
    },
    {
      name: 'service-imports-no-sdk',
      severity: 'error',
      from: { path: own },
      to: { path: '^sdk/' },
    },
    {
      name: 'no-sdk-cycles',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The SDK's build output (npm pack): what it compiles from is cruised, not the copy.
    exclude: { path: '^sdk/dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
