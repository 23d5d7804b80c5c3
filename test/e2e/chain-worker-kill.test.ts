/**
 * Issue 26's kill -9, with a real worker process: the service configured for a real chain
 * (CHAIN_PROVIDER=solana-rpc) against the chain simulator, on one PostgreSQL (skipped on PGlite
 * runs). An API in this process takes a PAYIN and its (sandbox) PIX; a worker process (ROLES=worker,
 * src/main.ts) signs, stores and sends the transfer, and is killed with SIGKILL: between signing
 * and sending (it kills itself right after the signed transfer commits, by the test-only
 * TEST_KILL_WORKER_AFTER_TRANSFER_STORED of main.ts, honoured with NODE_ENV=test only), and
 * between sending and confirming, once with its transaction dropped by the node, once with it
 * landed but not yet final. A new worker process takes the order over (the dead one's lease is
 * lapsed by hand) and completes it with exactly ONE transfer on chain.
 */
import { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { address, getBase58Decoder, type Signature } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { App } from '../../src/http/types.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createServices } from '../../src/services.ts';
import { type ChainSimulator, startChainSimulator } from '../../tools/chain-simulator/index.ts';
import { testConfig } from '../helpers/app.ts';
import { ata, simulatorRpc } from '../helpers/chain-simulator.ts';
import { migratedPostgresDatabase } from '../helpers/database.ts';
import { randomCpf } from '../helpers/documents.ts';
import { runTs, waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const newWallet = () => getBase58Decoder().decode(Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url'));

describe('kill -9 of the worker between signing and sending, and between sending and confirming: exactly one transfer', () => {
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  let sim: ChainSimulator;
  let database: DatabaseHandle;
  let app: App;
  let usdc: string;
  let dataDir: string;
  let headers: Record<string, string>;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    const empty = await migratedPostgresDatabase();
    if (!empty) return;
    ({ url, drop } = empty);
    // A fast slot clock (finality in a fraction of a second), as a cluster's, only quicker.
    sim = await startChainSimulator({ slotMs: 40, confirmedLag: 1, finalizedLag: 4 });
    usdc = (await sim.createMint({ decimals: 6 })).mint;
    env = { CHAIN_PROVIDER: 'solana-rpc', SOLANA_RPC_URL: sim.url, CHAIN_TOKEN_MINTS: `USDC:${usdc}`, SOLANA_COMMITMENT: 'finalized', ORDER_WORKER_INTERVAL_MS: '100' };
    // Any hour of the test run: the receiver's night window must not refuse the PAYIN.
    const config = testConfig({ ...env, RECEIVER_DEFAULT_NIGHT_TRANSACTIONS_PF: 'true' });
    database = await openDatabase({ driver: 'postgres', url, poolMax: 4 });
    const services = await createServices({ config, db: database.db, clock: systemClock });
    app = await buildApp({ config, db: database.db, services });
    await app.ready();
    // The treasury the worker processes will open (sealed under the same WALLET_KEK), funded on chain.
    const treasury = services.platformKeysAtStart.signers.TREASURY.address;
    await sim.airdrop(treasury, 10_000_000_000n);
    await sim.mintTo({ mint: usdc, owner: treasury, amount: 1_000_000_000_000n });
    const { credential } = await services.merchants.createMerchant({ name: 'Kill -9' }, { actor: 'test' });
    headers = { 'x-api-key': credential.apiKey, 'x-api-secret': credential.apiSecret };
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'chain-worker-'));
    env = { ...env, WALLET_KEK: config.walletKek, WEBHOOK_SECRET_KEY: config.webhookSecretKey, API_SECRET_PEPPER: config.apiSecretPepper };
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await app?.close();
    await database?.close();
    await sim?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await drop?.();
  });

  const call = async (method: 'GET' | 'POST', route: string, payload?: object) => {
    const response = await app.inject({ method, url: `/api/v1${route}`, headers, ...(payload ? { payload } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as Json;
  };
  const startWorker = (extra: Record<string, string> = {}) => {
    const child = runTs('src/main.ts', [], { ...env, NODE_ENV: 'test', ROLES: 'worker', DATABASE_URL: url!, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...extra });
    children.push(child);
    return child;
  };
  const kill = async (child: ChildProcess) => {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  const orderRow = (id: string) => database.db.selectFrom('orders').select(['status', 'tx_hash']).where('id', '=', id).executeTakeFirstOrThrow();

  /** A paid PAYIN to a fresh wallet; answers the order and its receiver's wallet. */
  async function paidPayin() {
    const wallet = newWallet();
    const receiver = await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Joana Souza', email: 'joana@example.com', walletAddress: wallet });
    await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    const order = await call('POST', '/payin', { receiverId: receiver.id, amountBrl: 25 });
    await call('POST', `/sandbox/orders/${order.id}/pix-payment`, {});
    return { order, wallet };
  }

  /** The dead worker's lease, lapsed (a new worker would wait out its 30 s otherwise). */
  const lapseLease = (id: string) => database.db.updateTable('orders').set({ claimed_until: null, next_step_at: new Date() }).where('id', '=', id).execute();

  async function expectOneTransfer(order: Json, wallet: string) {
    const done = await waitFor(async () => ((await orderRow(order.id)).status === 'COMPLETED' ? orderRow(order.id) : undefined), 30_000);
    const balance = (await simulatorRpc(sim.url).getTokenAccountBalance(await ata(address(wallet), address(usdc))).send()).value.amount;
    expect(balance).toBe(String(Math.round(Number(order.amountCrypto) * 1e6)));
    const transfer = await database.db.selectFrom('order_transactions').select(['tx_hash', 'previous_tx_hashes']).where('order_id', '=', order.id).where('type', '=', 'CHAIN_TRANSFER').executeTakeFirstOrThrow();
    expect(transfer.tx_hash).toBe(done.tx_hash);
    return transfer;
  }

  it('killed between signing and sending: the node never saw it, the next worker sends the stored bytes', async (ctx) => {
    if (!url) return ctx.skip();
    const { sent: sentBefore, landed: landedBefore } = sim.state().transactions;
    const { order, wallet } = await paidPayin();
    const worker = startWorker({ TEST_KILL_WORKER_AFTER_TRANSFER_STORED: 'true' });
    const [, signal] = await once(worker, 'exit');
    expect(signal).toBe('SIGKILL');
    // It died with the signed transfer committed and nothing sent: the node knows nothing of it.
    const stored = await database.db.selectFrom('order_transactions').select(['tx_hash', 'wire']).where('order_id', '=', order.id).where('type', '=', 'CHAIN_TRANSFER').executeTakeFirstOrThrow();
    expect(await orderRow(order.id)).toEqual({ status: 'TRANSFERRING', tx_hash: stored.tx_hash });
    expect(stored.wire).toEqual(expect.any(String));
    expect(sim.state().transactions.sent).toBe(sentBefore);
    const rpc = simulatorRpc(sim.url);
    const unknown = await rpc.getSignatureStatuses([stored.tx_hash as Signature], { searchTransactionHistory: true }).send();
    expect(unknown.value).toEqual([null]);
    await lapseLease(order.id);
    const next = startWorker();
    const transfer = await expectOneTransfer(order, wallet);
    expect(transfer).toEqual({ tx_hash: stored.tx_hash, previous_tx_hashes: [] });
    expect(sim.state().transactions.landed - landedBefore).toBe(1);
    // The receiver's token account has exactly one transaction: the stored one.
    const history = await rpc.getSignaturesForAddress(await ata(address(wallet), address(usdc))).send();
    expect(history.map((entry) => entry.signature)).toEqual([stored.tx_hash]);
    await kill(next);
  }, 60_000);

  it('its transaction dropped by the node: the next worker sends the same bytes', async (ctx) => {
    if (!url) return ctx.skip();
    await sim.setFaults({ dropNext: 1_000_000 });
    const { order, wallet } = await paidPayin();
    const worker = startWorker();
    await waitFor(async () => ((await orderRow(order.id)).status === 'TRANSFERRING' && sim.state().transactions.dropped > 0 ? true : undefined), 30_000);
    const sent = (await orderRow(order.id)).tx_hash;
    await kill(worker);
    await sim.reset();
    await lapseLease(order.id);
    const landedBefore = sim.state().transactions.landed;
    const next = startWorker();
    const transfer = await expectOneTransfer(order, wallet);
    expect(transfer).toEqual({ tx_hash: sent, previous_tx_hashes: [] });
    expect(sim.state().transactions.landed - landedBefore).toBe(1);
    await kill(next);
  });

  it('its transaction landed but not yet final: the next worker confirms it, sends nothing new', async (ctx) => {
    if (!url) return ctx.skip();
    await sim.setFaults({ finalityDelayMs: 60_000 });
    const landedBefore = sim.state().transactions.landed;
    const { order, wallet } = await paidPayin();
    const worker = startWorker();
    await waitFor(async () => ((await orderRow(order.id)).status === 'TRANSFERRING' && sim.state().transactions.landed > landedBefore ? true : undefined), 30_000);
    const sent = (await orderRow(order.id)).tx_hash;
    await kill(worker);
    await sim.reset();
    await lapseLease(order.id);
    const next = startWorker();
    const transfer = await expectOneTransfer(order, wallet);
    expect(transfer).toEqual({ tx_hash: sent, previous_tx_hashes: [] });
    expect(sim.state().transactions.landed - landedBefore).toBe(1);
    await kill(next);
  });
});
