/**
 * Every environment variable of the service in one schema: its type, default, constraints and
 * meaning (README's Configuration table lists the same variables, test/config.test.ts checks it).
 * Decoders turn the text into the values the configuration holds, and their decoded types are
 * the settings' types (settings.ts arranges them into Config); checks across variables live in
 * load.ts. A variable without a default is Type.Optional: unset means "absent" (or, for a few, a
 * default that depends on NODE_ENV, filled in by settings.ts).
 */
import path from 'node:path';
import { Type, type StaticDecode } from 'typebox';
import { decimal } from '../lib/money.ts';
import { MAX_MERCHANT_CITY, MAX_MERCHANT_NAME, pixText } from '../lib/pix-brcode.ts';
import { isSolanaAddress } from '../lib/solana.ts';
import { boolean, checkedText, clockTime, decimalText, integer, list, oneOf, refine, secret, text } from './env.ts';
import { keypairBytes } from '../lib/solana.ts';
import { isKey32, isPkcs8Pem, isTrustProxy, isUrlWith, isVersionedKey, normalizedPixKey, trustProxyOf, unescapeNewlines, versionedKeys } from './formats.ts';
import { CHAIN_SCHEMA } from './chain-schema.ts';
import { PIX_PROVIDER_SCHEMA } from './pix-provider-schema.ts';
import { EMAIL_SCHEMA } from './email-schema.ts';
import { PRICE_SOURCE_SCHEMA } from './price-source-schema.ts';
import { TREASURY_SCHEMA } from './treasury-schema.ts';

/**
 * DOMAIN.md (Solana): the programs the allow-list starts from, and the ones the current
 * @solana-program/* clients target by default (docs/solana-signing.md; the wallet tests compare
 * them with each client's *_PROGRAM_ADDRESS): @solana-program/memo 0.15 defaults to the Memo
 * program at Memo4c2…, its SUPPORTED_MEMO_PROGRAM_ADDRESSES also name the two classic ids.
 */
export const DEFAULT_ALLOWED_PROGRAMS = [
  '11111111111111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
  'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH',
];

export const ROLES = ['api', 'worker'] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

/** A fixed random key (EVP), so sandbox codes are stable across restarts; no real account has it. */
const SANDBOX_RECEIVING_KEY = '3f6d2a8e-5b1c-4e9f-a7d0-8c2b9e4f1a63';

const unique = <T>(items: T[]): T[] => [...new Set(items)];

/** Generated development keys are refused in production (several processes must share the same keys): see load.ts. */
const GENERATED = 'Unset: a development key is generated under DATA_DIR; required in production.';

/** The order of the variables is the order of their error lines. */
export const ENV_SCHEMA = Type.Object({
  NODE_ENV: oneOf(NODE_ENVS, {
    default: 'development',
    description: 'production requires DATABASE_URL and every key (no generated development keys), and refuses every simulated part unless SIMULATION_MODE=true',
  }),
  SIMULATION_MODE: boolean({
    default: false,
    description: 'declares everything simulated (sandbox PSP, chain and price): lets NODE_ENV=production start on them (warned at start, shown by /readyz), and refuses every real provider',
  }),
  ROLES: Type.Decode(
    list(oneOf(ROLES, { description: 'a role' }), { default: [...ROLES], minItems: 1, errorMessage: `must be a comma-separated list of ${ROLES.join(', ')}`, description: 'roles this process runs: the HTTP API, the background worker, or both' }),
    (roles) => unique(roles),
  ),
  HOST: text({ default: '127.0.0.1', description: 'interface to listen on (0.0.0.0 in containers)' }),
  PORT: integer({ minimum: 0, maximum: 65535, default: 3000, description: 'HTTP port' }),
  OPERATIONS_PORT: Type.Optional(integer({ minimum: 1, maximum: 65535, description: 'a process without the api role (ROLES=worker) serves GET /healthz, /readyz and /metrics on this port, and nothing else; unset: it listens on none (its metrics cannot be scraped)' })),
  DATA_DIR: Type.Decode(text({ default: './data', description: 'embedded database, development keys (dev-secrets.json), demo credentials' }), (dir) => path.resolve(dir)),
  DATABASE_URL: Type.Optional(
    checkedText((url) => isUrlWith(['postgres:', 'postgresql:'], url), {
      errorMessage: 'must be a postgres:// or postgresql:// URL',
      description: 'PostgreSQL connection string; unset means the embedded PGlite database under DATA_DIR',
    }),
  ),
  DATABASE_DIRECT_URL: Type.Optional(
    checkedText((url) => isUrlWith(['postgres:', 'postgresql:'], url), {
      errorMessage: 'must be a postgres:// or postgresql:// URL',
      description:
        'PostgreSQL itself when DATABASE_URL is a pooler in transaction mode (PgBouncer): the connections that need a session of their own (LISTEN/NOTIFY, the worker presence advisory lock) and the migrations use it; unset: DATABASE_URL (docs/architecture/scale.md)',
    }),
  ),
  DATABASE_READ_URL: Type.Optional(
    checkedText((url) => isUrlWith(['postgres:', 'postgresql:'], url), {
      errorMessage: 'must be a postgres:// or postgresql:// URL',
      description:
        "a streaming replica of DATABASE_URL's database: GET /orders and the orders export read from it while its lag is within DATABASE_READ_MAX_LAG_MS (a merchant whose orders this process just changed reads from the primary); writes never go there; unset: every read on DATABASE_URL",
    }),
  ),
  DATABASE_READ_MAX_LAG_MS: integer({ minimum: 100, maximum: 600_000, default: 2000, description: "the replica's freshness bound: over this lag, reads go to the primary until it catches up" }),
  DATABASE_NAMED_STATEMENTS: boolean({
    default: true,
    description:
      'named prepared statements (planned once per connection; src/db/prepared-statements.ts); false behind a pooler in transaction mode that does not keep them (PgBouncer before 1.21, or without max_prepared_statements)',
  }),
  DATABASE_POOL_MAX: integer({ minimum: 1, maximum: 1000, default: 10, description: 'PostgreSQL connections per process' }),
  DATABASE_WORKER_POOL_MAX: integer({
    minimum: 0,
    maximum: 1000,
    default: 4,
    description: "with ROLES=api,worker on PostgreSQL: the worker role's own connections (webhook delivery, order steps), so its claims never queue behind API requests; 0 shares DATABASE_POOL_MAX",
  }),
  ADMIN_TOKEN: Type.Optional(secret(32, { description: 'bearer token of the operator API; unset disables every /admin route' })),
  METRICS_TOKEN: Type.Optional(secret(32, { description: 'bearer token GET /metrics requires; unset: /metrics is open except in production, where it is closed (401)' })),
  LOG_LEVEL: oneOf(LOG_LEVELS, { default: 'info', description: 'log level' }),
  TRUST_PROXY: Type.Decode(
    refine(
      text({ default: 'false', description: 'proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: false (none), their number in front of the service (e.g. 1), or their addresses and CIDRs, comma-separated' }),
      isTrustProxy,
      'must be false, the number of proxies in front of the service (e.g. 1), or their addresses/CIDRs comma-separated (e.g. 10.0.0.0/8); true would believe any X-Forwarded-For a client sends',
    ),
    trustProxyOf,
  ),
  BODY_LIMIT_BYTES: integer({ minimum: 1024, maximum: 64 * 1024 * 1024, default: 256 * 1024, description: 'largest accepted request body (larger: 413)' }),

  JWT_PRIVATE_KEY: Type.Optional(
    Type.Decode(
      checkedText(isPkcs8Pem, {
        errorMessage: 'must be a PKCS#8 PEM private key ("-----BEGIN PRIVATE KEY-----")',
        description: `Ed25519 private key, PKCS#8 PEM (\\n escapes allowed), signing access tokens. ${GENERATED}`,
      }),
      unescapeNewlines,
    ),
  ),
  JWT_ISSUER: text({ default: 'crypto-brl-exchange', description: 'iss of access tokens' }),
  JWT_AUDIENCE: text({ default: 'merchant-api', description: 'aud of access tokens' }),
  JWT_TTL_SECONDS: integer({ minimum: 60, maximum: 3600, default: 900, description: 'access token lifetime' }),
  API_SECRET_PEPPER: Type.Optional(secret(32, { description: `key under which API secrets' digests are stored sealed. ${GENERATED}` })),
  API_SECRET_PEPPER_PREVIOUS: Type.Optional(
    secret(32, { description: 'the API_SECRET_PEPPER before a rotation: API secrets stored under it keep working until `npm run admin -- rotate-secrets` has re-sealed them; then unset it' }),
  ),
  RATE_LIMIT_PER_MINUTE: integer({ minimum: 0, maximum: 10_000_000, default: 6000, description: 'requests per minute per API credential; 0 disables the limit' }),
  TOKEN_RATE_LIMIT_PER_MINUTE: integer({ minimum: 0, maximum: 10_000_000, default: 60, description: 'POST /auth/token requests per minute per client IP; 0 disables the limit' }),
  AUTH_FAILURE_LIMIT_PER_MINUTE: integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 30,
    description: 'failed authentications per minute per client IP (merchant and admin routes, POST /auth/token); past it, 429 before any lookup until the minute ends; 0 disables the limit',
  }),
  DOCS_ENABLED: Type.Optional(boolean({ description: 'serves the interactive API reference at /docs (the OpenAPI document at /api/v1/openapi.json is always served); unset: true except in production' })),
  DASHBOARD_DIR: Type.Optional(
    Type.Decode(text({ description: 'the built merchant dashboard (web/dist, written by `npm run web:build`) served at /app; unset: web/dist of this checkout' }), (dir) => path.resolve(dir)),
  ),
  SANDBOX_ENABLED: Type.Optional(boolean({ description: 'mounts /api/v1/sandbox (test drivers of the simulated PSP and chain, KYC decisions); unset: true except in production and, outside NODE_ENV=test, with PIX_PROVIDER=api-pix' })),
  IDEMPOTENCY_KEY_TTL_HOURS: integer({ minimum: 24, maximum: 24 * 366, default: 24, description: 'hours an Idempotency-Key is remembered (at least 24, DESIGN.md §4); the worker purges older keys' }),

  ORDER_MIN_AMOUNT_BRL: decimalText(2, { default: '1.00', description: 'smallest accepted order in BRL (PAYOUT: its gross value)' }),
  ORDER_MAX_AMOUNT_BRL: decimalText(2, { default: '100000.00', description: 'largest accepted order in BRL (PAYOUT: its gross value)' }),
  PAYIN_EXPIRY_SECONDS: integer({ minimum: 60, maximum: 86_400, default: 900, description: 'how long a PAYIN waits for its PIX' }),
  PAYOUT_EXPIRY_SECONDS: integer({ minimum: 60, maximum: 86_400, default: 3600, description: 'how long a PAYOUT waits for its deposit' }),
  QUOTE_TTL_SECONDS: integer({ minimum: 5, maximum: 3600, default: 30, description: 'how long a quote holds its rate and fees' }),
  NIGHT_START: clockTime({ default: '20:00', description: "start of the night window in São Paulo time; orders in it need the receiver's nightTransactionsEnabled" }),
  NIGHT_END: clockTime({ default: '06:00', description: 'end of the night window in São Paulo time' }),
  SUPPORTED_TOKENS: Type.Decode(
    list(text({ pattern: '^[A-Z0-9]{2,10}:\\d$', description: 'SYMBOL:decimals' }), {
      default: ['USDC:6'],
      dropEmptyItems: true,
      quote: 'items',
      errorMessage: 'must list SYMBOL:decimals pairs, e.g. USDC:6',
      description: 'tokens orders accept, with their decimals (SYMBOL:decimals, comma-separated)',
    }),
    (pairs) => Object.fromEntries(pairs.map((pair) => pair.split(':')).map(([symbol, decimals]) => [symbol, Number(decimals)])) as Record<string, number>,
  ),
  SUPPORTED_CHAINS: list(text({ description: 'a chain' }), { default: ['solana'], dropEmptyItems: true, errorMessage: 'must be a comma-separated list', description: 'chains orders accept (comma-separated)' }),
  ORDER_LIST_CACHE_MS: integer({ minimum: 0, maximum: 10_000, default: 1000, description: 'how long a GET /orders page may be served from memory; 0 reads every page from the database' }),
  ORDER_EXPORT_MAX_ROWS: integer({ minimum: 1, maximum: 1_000_000, default: 100_000, description: 'most orders one GET /orders/export file holds (the newest); beyond it the answer says X-Export-Truncated: true' }),
  ORDER_EXPORT_PAGE_SIZE: integer({ minimum: 1, maximum: 10_000, default: 1000, description: 'orders GET /orders/export reads per statement while it streams the file' }),
  STUCK_ORDER_MINUTES: integer({ minimum: 1, maximum: 43_200, default: 30, description: 'GET /admin/orders/stuck: an order in transit (money arrived, not ended) unchanged this long needs an operator; the route\'s olderThanMinutes overrides it' }),
  CHAIN_EXPLORER_TX_URL: text({
    default: '',
    pattern: '^(|https?://\\S*\\{signature\\}\\S*)$',
    errorMessage: 'must be empty or an http(s) URL containing {signature}',
    description: "where a chain signature is shown to people (GET /orders/{id}/timeline's explorerUrl): a URL with {signature}, e.g. https://explorer.solana.com/tx/{signature}?cluster=devnet; empty (the default): no link (a sandbox or local chain has no public explorer)",
  }),
  ORDER_WORKER_INTERVAL_MS: integer({ minimum: 10, maximum: 60_000, default: 500, description: "the order worker's fallback sweep; a step that becomes due wakes it at once" }),
  SANDBOX_AUTO_COMPLETE_SECONDS: integer({ minimum: 0, maximum: 86_400, default: 0, description: 'sandbox only: pay charges and deposit for orders older than this many seconds (0: never)' }),
  SETTLEMENT_ENABLED: boolean({ default: true, description: "the worker's daily settlement of merchant fees" }),
  SETTLEMENT_TIME: clockTime({ default: '00:00', description: 'São Paulo time of day of the daily settlement' }),

  PIX_MERCHANT_NAME: refine(
    text({ default: 'CRYPTO BRL EXCHANGE', description: 'merchant name of BR Codes (field 59; written as uppercase ASCII, at most 25 characters)' }),
    (name) => pixText(name, MAX_MERCHANT_NAME) !== '',
    'must contain letters or digits (BR Codes carry uppercase ASCII only)',
  ),
  PIX_MERCHANT_CITY: refine(
    text({ default: 'SAO PAULO', description: 'merchant city of BR Codes (field 60; written as uppercase ASCII, at most 15 characters)' }),
    (city) => pixText(city, MAX_MERCHANT_CITY) !== '',
    'must contain letters or digits (BR Codes carry uppercase ASCII only)',
  ),
  PIX_RECEIVING_KEY: Type.Decode(
    checkedText((key) => normalizedPixKey(key) !== undefined, {
      default: SANDBOX_RECEIVING_KEY,
      errorMessage: 'must be a PIX key: CPF, CNPJ, e-mail, +55 phone or random key (UUID)',
      description: "the platform's PIX key (read in DICT form) written into the sandbox PSP's charge codes",
    }),
    (key) => normalizedPixKey(key)!,
  ),
  SANDBOX_USDC_BRL_RATE: refine(
    decimalText(8, { default: '5.40', description: 'BRL per USDC of the sandbox price source, unless SANDBOX_TOKEN_BRL_RATES names USDC' }),
    (rate) => decimal(rate).gt(0),
    'must be positive',
  ),
  ...PRICE_SOURCE_SCHEMA,
  RECEIVER_DEFAULT_DAILY_LIMIT_BRL: Type.Optional(decimalText(2, { description: "a new receiver's daily limit in BRL; unset: no limit" })),
  RECEIVER_DEFAULT_DAILY_TRANSACTION_LIMIT: Type.Optional(
    integer({ minimum: 0, maximum: 1_000_000, description: "a new receiver's daily number of transactions; unset: no limit" }),
  ),
  RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PF: boolean({ default: false, description: "a new individual (PF) receiver's nightTransactionsEnabled (Banco Central's night limits)" }),
  RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PJ: boolean({ default: true, description: "a new company (PJ) receiver's nightTransactionsEnabled" }),
  MERCHANT_FEE_MAX_PERCENTAGE: refine(
    decimalText(6, { default: '0.1', description: 'highest merchant fee a merchant may set, as a fraction (0.1 = 10 %)' }),
    (fraction) => decimal(fraction).lt(1),
    'must be a fraction below 1 (0.1 = 10 %)',
  ),
  FEE_TIERS_MAX: integer({ minimum: 1, maximum: 100, default: 20, description: 'most fee bands per order type' }),

  WEBHOOK_RETRY_SCHEDULE: list(integer({ minimum: 0, maximum: 7 * 86400, description: 'seconds' }), {
    default: [5, 300, 1800, 7200, 18000, 36000, 36000],
    maxItems: 20,
    errorMessage: `must be a comma-separated list of at most 20 integers from 0 to ${7 * 86400}`,
    description: 'seconds before each automatic retry of a failed delivery; after the last, FAILED',
  }),
  WEBHOOK_TIMEOUT_MS: integer({ minimum: 100, maximum: 60_000, default: 10_000, description: 'deadline of one delivery attempt (connect, send, response headers and the kept body)' }),
  WEBHOOK_ALLOW_HTTP: Type.Optional(
    boolean({ description: 'development receivers: loopback targets and plain http:// to non-public addresses; unset: true except in production' }),
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean({ default: false, description: 'allows private, shared (CGNAT), link-local and unique-local targets' }),
  WEBHOOK_WORKER_INTERVAL_MS: integer({ minimum: 10, maximum: 600_000, default: 1000, description: "the delivery worker's fallback sweep (due retries, missed notifications); new events wake it at once" }),
  WEBHOOK_CONCURRENCY: integer({ minimum: 1, maximum: 1000, default: 128, description: 'delivery attempts in flight at once per worker process' }),
  WEBHOOK_ENDPOINT_CONCURRENCY: integer({
    minimum: 1,
    maximum: 1000,
    default: 64,
    description: 'delivery attempts in flight at once per endpoint, across all workers (in each worker an endpoint starts at a quarter of it, gains one per success and halves on a timeout, 429 or 503)',
  }),
  WEBHOOK_DISABLE_AFTER_DAYS: integer({ minimum: 0, maximum: 365, default: 5, description: 'an endpoint whose every attempt failed for this many days is disabled, and the merchant told by an event (0: never)' }),
  WEBHOOK_DELIVERY_RETENTION_DAYS: integer({ minimum: 1, maximum: 3650, default: 30, description: 'days a finished delivery (and its attempts) is kept after its last change; the worker purges older ones' }),
  EVENT_RETENTION_DAYS: integer({ minimum: 1, maximum: 3650, default: 30, description: 'days an event is kept; the worker purges older ones once none of their deliveries is left' }),
  WEBHOOK_CLAIM_LEASE_MS: integer({
    minimum: 1000,
    maximum: 3_600_000,
    default: 60_000,
    description: "a worker's lease on a delivery: one whose worker died is retried once it has passed (at least WEBHOOK_TIMEOUT_MS + 5000)",
  }),
  WEBHOOK_SECRET_KEY: Type.Optional(secret(32, { description: `key under which endpoint signing secrets, TOTP secrets and stored idempotent answers are encrypted at rest. ${GENERATED}` })),
  WEBHOOK_SECRET_KEY_PREVIOUS: Type.Optional(
    secret(32, { description: 'the WEBHOOK_SECRET_KEY before a rotation: what it sealed still opens until `npm run admin -- rotate-secrets` has re-sealed it; then unset it' }),
  ),

  ...PIX_PROVIDER_SCHEMA,

  ...TREASURY_SCHEMA,

  WALLET_KEK: Type.Optional(
    checkedText(isKey32, {
      errorMessage: 'must be 32 bytes, base64-encoded (e.g. openssl rand -base64 32)',
      description: `key-encryption key of every Solana key the service holds (managed wallets, the treasury, the sponsor): 32 bytes, base64. ${GENERATED}`,
    }),
  ),
  WALLET_KEK_VERSION: integer({ minimum: 1, maximum: 32_767, default: 1, description: 'the version stored with every key sealed under WALLET_KEK' }),
  WALLET_KEK_PREVIOUS: Type.Optional(
    Type.Decode(
      list(refine(text({ description: 'version:base64key' }), isVersionedKey, 'must be version:key'), {
        quote: 'never',
        errorMessage: 'must list version:key pairs, each key 32 bytes base64 (an entry is malformed)',
        description: 'retired KEKs as version:base64key pairs (comma-separated), still able to open keys sealed under them',
      }),
      versionedKeys,
    ),
  ),
  SPONSOR_PRIVATE_KEY: Type.Optional(
    checkedText((keypair) => keypairBytes(keypair) !== undefined, {
      errorMessage: "must be a Solana keypair: base58 of 64 bytes, or a JSON array of 64 numbers (solana-keygen's file)",
      description:
        "an existing fee payer to bring in: base58 of its 64-byte keypair, or solana-keygen's JSON array; imported (sealed under WALLET_KEK into platform_keys) at start when no SPONSOR key is stored, else unused. Unset: the stored key, created at first start outside production, or by `npm run admin -- create-platform-keys`",
    }),
  ),
  SOLANA_RPC_URL: Type.Optional(
    checkedText((url) => isUrlWith(['http:', 'https:'], url), {
      errorMessage: 'must be an http:// or https:// URL',
      description: 'Solana JSON-RPC endpoint for managed wallets and, with CHAIN_PROVIDER=solana-rpc, PAYIN transfers; unset means the in-process LiteSVM sandbox chain for managed wallets',
    }),
  ),
  ...CHAIN_SCHEMA,
  ...EMAIL_SCHEMA,
  WALLET_ALLOWED_PROGRAMS: Type.Decode(
    list(refine(text({ description: 'a program id' }), isSolanaAddress, 'must be a Solana address'), {
      default: DEFAULT_ALLOWED_PROGRAMS,
      minItems: 1,
      dropEmptyItems: true,
      quote: 'items',
      errorMessage: 'must be a comma-separated list of Solana program ids',
      description: 'program ids a sponsored transaction may call (comma-separated)',
    }),
    (programs) => unique(programs),
  ),
  // Defaults (docs/solana-signing.md "What the platform pays"): 10,000 micro-lamports × 200,000
  // units is a 2,000-lamport priority fee, and with the two signatures 12,000 lamports, the most
  // one transaction within both caps can cost: WALLET_MAX_FEE_LAMPORTS's default.
  WALLET_MAX_CU_PRICE_MICROLAMPORTS: integer({ minimum: 0, maximum: 1_000_000_000_000, default: 10_000, description: 'highest SetComputeUnitPrice of a sponsored transaction, micro-lamports per compute unit' }),
  WALLET_MAX_CU_LIMIT: integer({ minimum: 1, maximum: 1_400_000, default: 200_000, description: 'highest compute-unit limit of a sponsored transaction: its SetComputeUnitLimit, or when it sets a price, the runtime default it would get' }),
  WALLET_MAX_FEE_LAMPORTS: integer({ minimum: 10_000, maximum: 1_000_000_000, default: 12_000, description: 'highest total fee (signatures + priority) the sponsor pays for one transaction' }),
  WALLET_SPONSOR_DAILY_BUDGET_LAMPORTS: integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 500_000_000,
    description: "lamports of fees the sponsor pays per merchant per São Paulo calendar day, all its wallets together (0: nothing is sponsored)",
  }),
  WALLET_MAX_INSTRUCTIONS: integer({ minimum: 1, maximum: 64, default: 12, description: 'most instructions in one sponsored transaction' }),
  WALLET_SIGN_RATE_LIMIT_PER_MINUTE: integer({ minimum: 0, maximum: 1_000_000, default: 120, description: 'sign requests per minute per wallet (receiver or merchant); 0 disables the limit' }),
  SANDBOX_SPONSOR_LAMPORTS: integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 100_000_000_000, description: 'sandbox chain only: lamports airdropped to the fee payer when the chain starts' }),
  WALLET_KEY_CACHE_SECONDS: integer({ minimum: 0, maximum: 3600, default: 60, description: 'how long a decrypted wallet key stays in memory (0: decrypt on every request)' }),
});

/** The variables as the schema decodes them (optional ones may be undefined). */
export type EnvValues = StaticDecode<typeof ENV_SCHEMA>;
