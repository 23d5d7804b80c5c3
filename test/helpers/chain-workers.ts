/**
 * The bench of the kill -9 tests with real worker processes (test/e2e/chain-worker-kill.test.ts,
 * test/e2e/worker-kill-recovery.test.ts): the service configured for a real chain
 * (CHAIN_PROVIDER=solana-rpc) against the chain simulator, on one PostgreSQL database (undefined
 * on PGlite runs: a worker process cannot share the embedded database). An API in the test's
 * process takes PAYINs and their (sandbox) PIX; workers are `src/main.ts` with ROLES=worker.
 */
import { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { address, getBase58Decoder } from '@solana/kit';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { App } from '../../src/http/types.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createServices } from '../../src/services.ts';
import { type ChainSimulator, startChainSimulator } from '../../tools/chain-simulator/index.ts';
import { testConfig } from './app.ts';
import { ata, simulatorRpc } from './chain-simulator.ts';
import { migratedPostgresDatabase } from './database.ts';
import { randomCpf } from './documents.ts';
import { runTs } from './processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ChainWorkers {
  url: string;
  sim: ChainSimulator;
  database: DatabaseHandle;
  usdc: string;
  /** A PAYIN paid by its (sandbox) PIX, to a fresh wallet of its own receiver: PAYMENT_RECEIVED, due for a worker. */
  paidPayin(): Promise<{ order: Json; wallet: string }>;
  /** `src/main.ts` as a worker process (NODE_ENV=test, logs off); `extra` adds to its environment. */
  startWorker(extra?: Record<string, string>): ChildProcess;
  /** SIGKILL, and its exit. */
  kill(child: ChildProcess): Promise<void>;
  orderRow(id: string): Promise<{ status: string; tx_hash: string | null }>;
  /** The receiver's token balance in base units, as the chain has it. */
  tokenBalance(wallet: string): Promise<string>;
  close(): Promise<void>;
}

const newWallet = () => getBase58Decoder().decode(Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url'));

/**
 * `slotMs`: the simulator's slot time. A blockhash lives 150 slots (6 s at 40 ms): a test that
 * expects a restarted worker to resend the very bytes of a dropped transfer needs longer, or a
 * loaded machine's slow process start lets the blockhash expire and the worker rightly re-signs.
 */
export async function startChainWorkers(options: { slotMs?: number } = {}): Promise<ChainWorkers | undefined> {
  const empty = await migratedPostgresDatabase();
  if (!empty) return undefined;
  const { url, drop } = empty;
  // A fast slot clock (finality in a fraction of a second), as a cluster's, only quicker.
  const sim = await startChainSimulator({ slotMs: options.slotMs ?? 40, confirmedLag: 1, finalizedLag: 4 });
  const usdc = (await sim.createMint({ decimals: 6 })).mint;
  // Without the treasury's lookup tables: their extensions would land beside the transfers, and the
  // kill tests count every transaction the chain landed against the orders' own (extensions have
  // their own kill-and-resend test, test/modules/lookup-tables/).
  let env: Record<string, string> = { CHAIN_PROVIDER: 'solana-rpc', SOLANA_RPC_URL: sim.url, CHAIN_TOKEN_MINTS: `USDC:${usdc}`, SOLANA_COMMITMENT: 'finalized', ORDER_WORKER_INTERVAL_MS: '100', CHAIN_LOOKUP_TABLES: 'false' };
  // Any hour of the test run: the receiver's night window must not refuse the PAYIN.
  const config = testConfig({ ...env, RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PF: 'true' });
  const database = await openDatabase({ driver: 'postgres', url, poolMax: 4 });
  const services = await createServices({ config, db: database.db, clock: systemClock });
  const app: App = await buildApp({ config, db: database.db, services });
  await app.ready();
  // The treasury the worker processes will open (sealed under the same WALLET_KEK), funded on chain.
  const treasury = services.platformKeysAtStart.signers.TREASURY.address;
  await sim.airdrop(treasury, 10_000_000_000n);
  await sim.mintTo({ mint: usdc, owner: treasury, amount: 1_000_000_000_000n });
  const { credential } = await services.merchants.createMerchant({ name: 'Kill -9' }, { actor: 'test' });
  const headers = { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret };
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'chain-worker-'));
  env = { ...env, WALLET_KEK: config.walletKek, WEBHOOK_SECRET_KEY: config.webhookSecretKey, API_SECRET_PEPPER: config.apiSecretPepper };
  const children: ChildProcess[] = [];

  const call = async (method: 'GET' | 'POST', route: string, payload?: object) => {
    const response = await app.inject({ method, url: `/api/v1${route}`, headers, ...(payload ? { payload } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as Json;
  };

  return {
    url,
    sim,
    database,
    usdc,
    async paidPayin() {
      const wallet = newWallet();
      const receiver = await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Joana Souza', email: 'joana@example.com', walletAddress: wallet });
      await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
      const order = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 25 });
      await call('POST', `/sandbox/orders/${order.id}/pix-payment`, {});
      return { order, wallet };
    },
    startWorker(extra = {}) {
      const child = runTs('src/main.ts', [], { ...env, NODE_ENV: 'test', ROLES: 'worker', DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extra });
      children.push(child);
      return child;
    },
    async kill(child) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    orderRow: (id) => database.db.selectFrom('orders').select(['status', 'tx_hash']).where('id', '=', id).executeTakeFirstOrThrow(),
    async tokenBalance(wallet) {
      return (await simulatorRpc(sim.url).getTokenAccountBalance(await ata(address(wallet), address(usdc))).send()).value.amount;
    },
    async close() {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await app.close();
      await database.close();
      await sim.close();
      await rm(dataDir, { recursive: true, force: true });
      await drop();
    },
  };
}
