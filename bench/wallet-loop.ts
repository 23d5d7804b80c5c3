/**
 * Informal: sign-and-send-transaction through app.inject (no socket) in one process, on an
 * in-memory PGlite (or DATABASE_URL) and the LiteSVM sandbox chain: the bench's memo transactions
 * (fee payer = the platform's), `concurrency` requests in flight. Prints requests/s and, less
 * sensitive to a shared machine, the process's CPU milliseconds per request.
 * Run: node bench/wallet-loop.ts [count] [concurrency]
 */
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { generateDevSecrets, withSecrets } from '../src/runtime-config.ts';
import { memoTransactions } from './lib/wallet.ts';

const count = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 10);
const handle = await openDatabase(process.env.DATABASE_URL ? { driver: 'postgres', url: process.env.DATABASE_URL } : { driver: 'pglite' });
await migrateToLatest(handle.db);
const config = withSecrets(loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent', WALLET_SIGN_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0', WALLET_SPONSOR_DAILY_BUDGET_LAMPORTS: String(Number.MAX_SAFE_INTEGER) }), generateDevSecrets());
const app = await buildApp({ config, db: handle.db });
await app.ready();
const { credential } = await app.services.merchants.createMerchant({ name: 'Bench' }, { actor: 'bench' });
const headers = { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret };
const receiver = (
  await app.inject({ method: 'POST', url: '/api/v1/receivers', headers, payload: { type: 'PJ', document: '11222333000181', name: 'Bench', email: 'b@example.com', createManagedWallet: true } })
).json();
// Wallet signing needs an APPROVED receiver (docs/solana-signing.md).
await app.inject({ method: 'POST', url: `/api/v1/sandbox/receivers/${receiver.id}/kyc`, headers, payload: { decision: 'APPROVE' } });
const transactions = memoTransactions(receiver.walletAddress, app.services.wallets.sponsorAddress, count + 50);
let next = 0;
const send = async () => {
  const response = await app.inject({ method: 'POST', url: `/api/v1/receivers/${receiver.id}/wallet/sign-and-send-transaction`, headers, payload: { transaction: transactions[next++] } });
  if (response.statusCode !== 200) throw new Error(response.body);
};
for (let i = 0; i < 50; i++) await send();
const started = performance.now();
const cpu = process.cpuUsage();
let remaining = count;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (remaining-- > 0) await send();
  }),
);
const used = process.cpuUsage(cpu);
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    requests: count,
    concurrency,
    perSecond: Math.round(count / seconds),
    cpuMsEach: Number(((used.user + used.system) / 1000 / count).toFixed(3)),
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
  }),
);
await app.close();
await handle.close();
