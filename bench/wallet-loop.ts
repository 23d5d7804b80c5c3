/**
 * Informal: sign-and-send-transaction per second in one process, through app.inject (no
 * socket), on an in-memory PGlite and the LiteSVM sandbox chain, sequential requests.
 * Run: npx tsx bench/wallet-loop.ts [count]
 */
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { generateDevSecrets, withSecrets } from '../src/runtime-config.ts';
import { buildTransaction, newAddress, transferSol } from '../test/modules/wallets/helpers.ts';

const count = Number(process.argv[2] ?? 500);
const handle = await openDatabase({ driver: 'pglite' });
await migrateToLatest(handle.db);
const config = withSecrets(loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent', WALLET_SIGN_RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PER_MINUTE: '0' }), generateDevSecrets());
const app = await buildApp({ config, db: handle.db });
await app.ready();
const { credential } = await app.services.merchants.createMerchant({ name: 'Bench' }, { actor: 'bench' });
const headers = { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret };
const receiver = (
  await app.inject({ method: 'POST', url: '/api/v1/receivers', headers, payload: { type: 'PJ', document: '11222333000181', name: 'Bench', email: 'b@example.com', createManagedWallet: true } })
).json();
await app.inject({ method: 'POST', url: '/api/v1/sandbox/wallet/airdrop', headers, payload: { address: receiver.walletAddress, lamports: 1_000_000_000_000 } });
const destination = newAddress();
const tx = buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, destination, 1_000_000n)]);
const send = () => app.inject({ method: 'POST', url: `/api/v1/receivers/${receiver.id}/wallet/sign-and-send-transaction`, headers, payload: { transaction: tx } });
for (let i = 0; i < 20; i++) await send();
const started = performance.now();
for (let i = 0; i < count; i++) {
  const response = await send();
  if (response.statusCode !== 200) throw new Error(response.body);
}
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ requests: count, seconds: Number(seconds.toFixed(2)), perSecond: Math.round(count / seconds), msEach: Number(((seconds * 1000) / count).toFixed(2)) }));
await app.close();
await handle.close();
