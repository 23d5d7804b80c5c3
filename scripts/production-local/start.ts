/**
 * Every step of `npm run production-local`, in dependency order, the independent ones at once
 * (the machine may have two cores: most of the time is Node processes starting). Each step prints
 * its one line through the supervisor; everything it starts is stopped by the supervisor.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import path from 'node:path';
import { productionKeyLines } from '../../src/cli/production-keys.ts';
import { createMerchant, createPlatformKeys, type Funded, fundPlatformKeys, inviteOperator, type Merchant, migrate, recordTreasuryFundings } from './bootstrap.ts';
import { createLocalTls, type LocalTls } from './certificates.ts';
import { createHttpsClient, type HttpsClient } from './https-client.ts';
import { startMailSink, type MailSink } from './mail-sink.ts';
import type { Options } from './options.ts';
import { createFreshDatabase } from './postgres.ts';
import { startPriceSource } from './price-source.ts';
import { startService } from './service.ts';
import { callbackSecrets, type Env, keysFrom, serviceEnv, WEBHOOK_HEADER, writeEnvFile } from './settings.ts';
import { type ChainSimulator, type PspSimulator, startChainSimulator, startPspSimulator } from './simulators.ts';
import { shown, type Supervisor } from './supervisor.ts';
import { startTlsFront } from './tls-front.ts';

export const OPERATOR_EMAIL = 'operator@production-local.test';

/** What the smoke run, and the ready line, need from a started deployment. */
export interface Deployment {
  stateDir: string;
  env: Env;
  /** https://localhost:<front>/api/v1 */
  apiUrl: string;
  tls: LocalTls;
  client: HttpsClient;
  psp: PspSimulator;
  chain: ChainSimulator;
  mail: MailSink;
  merchant: Merchant;
  funded: Funded;
  priceUrl: string;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export async function startDeployment(run: Supervisor, options: Options): Promise<Deployment> {
  const { stateDir, ports } = options;
  const apiPorts = ports ? Array.from({ length: options.apiProcesses }, (_, i) => ports.api + i) : await Promise.all(Array.from({ length: options.apiProcesses }, freePort));
  const callback = callbackSecrets();
  const mailDir = path.join(stateDir, 'mail');

  const [keys, tls, database, chain] = await Promise.all([
    // What `npm run admin -- generate-keys` prints, made in this process (a process of its own costs a second of CPU).
    run.step('keys', async () => keysFrom(productionKeyLines().join('\n')), (k) => `${Object.keys(k).length} fresh keys as admin generate-keys makes them (JWT, pepper, webhook key, KEK, admin and metrics tokens)`),
    run.step('tls', () => createLocalTls(path.join(stateDir, 'tls')), (t) => `local CA and a localhost certificate (openssl): ${shown(t.caCertFile)}`),
    run.step('postgres', () => createFreshDatabase(options.postgres, options.database), (d) => `database ${options.database} ${d.replaced ? 'made again (the previous run’s dropped)' : 'created'}`),
    run.step(
      'chain-simulator',
      () => startChainSimulator(run, { port: ports?.chain ?? 0, slotMs: options.slotMs, finalizedLag: options.finalizedLag }),
      (c) => `Solana JSON-RPC ${c.rpcUrl} (slot ${options.slotMs} ms, finalized after ${options.finalizedLag}), USDC mint ${c.usdcMint}`,
    ),
  ]);
  const client = createHttpsClient(tls.caPem);
  run.onStop(() => client.close());

  const announceMail = (file: string, overTls: boolean) => run.say(`mail received${overTls ? ' over STARTTLS' : ''}: ${shown(file.replace(/\.eml$/, '.txt'))}`);
  const pspInput = { stateDir, port: ports?.psp ?? 0, controlPort: ports?.pspControl ?? 0, caCertFile: tls.caCertFile, webhookHeaders: { [WEBHOOK_HEADER]: callback.headerSecret } };
  const [price, mail, psp, front] = await Promise.all([
    run.step('price-source', () => startPriceSource(tls, ports?.price ?? 0, options.usdcBrl), (p) => `${p.url} (USDC at ${options.usdcBrl} BRL; PUT it to change)`),
    run.step('mail-sink', () => startMailSink(tls, ports?.smtp ?? 0, mailDir, announceMail), (m) => `${m.url} (STARTTLS), messages in ${shown(mailDir)}/`),
    run.step('psp-simulator', () => startPspSimulator(run, pspInput), (p) => `API Pix ${p.ready.apiUrl} (mTLS), control ${p.controlUrl}`),
    run.step('tls-front', () => startTlsFront(tls, ports?.front ?? 0, apiPorts), (f) => `${f.url} → api ${apiPorts.map((p) => `:${p}`).join(', ')} (the PSP's callbacks too)`),
  ]);
  for (const server of [price, mail, front]) run.onStop(() => server.close());

  const env = serviceEnv({ stateDir, databaseUrl: database.url, keys, tls, psp, callback, chain, priceUrl: price.url, smtpUrl: mail.url, frontUrl: front.url, smoke: options.smoke });
  writeEnvFile(path.join(stateDir, 'service.env'), env);
  await run.step('migrate', () => migrate(run, env), (ran) => `${ran.length} migrations applied (npm run migrate)`);
  const platformKeys = await run.step('platform-keys', () => createPlatformKeys(run, env), (k) => `treasury ${k.treasury}, sponsor ${k.sponsor}, sealed in the database (admin create-platform-keys)`);
  // Funded before the service starts: its first liquidity check reads the treasury once and keeps the answer a while.
  const funded = await run.step('funding', () => fundPlatformKeys(chain.adminUrl, chain.usdcMint, platformKeys), () => 'on chain: treasury 2 SOL and 1000 USDC, sponsor 1 SOL (it pays the deposit sweeps)');
  const workerPorts = await Promise.all(Array.from({ length: options.workerProcesses }, freePort));
  await run.step('service', () => startService(run, env, apiPorts, workerPorts), (names) => `NODE_ENV=production, ${names.join(', ')} (logs in ${shown(path.join(stateDir, 'logs'))}/)`);

  const apiUrl = `${front.url}/api/v1`;
  const adminToken = keys.ADMIN_TOKEN!;
  const merchantFile = path.join(stateDir, 'merchant.json');
  const [merchant] = await Promise.all([
    run.step('merchant', () => createMerchant(client, apiUrl, adminToken, 'Loja Local'), (m) => `${m.merchantId} (POST /admin/merchants), its key and secret in ${shown(merchantFile)}`),
    run.step('operator', () => inviteOperator(client, apiUrl, adminToken, OPERATOR_EMAIL), () => `${OPERATOR_EMAIL} invited as ADMIN (POST /admin/operators): the link is in the mail sink`),
    run.step('treasury-books', () => recordTreasuryFundings(client, apiUrl, adminToken, funded, chain.usdcMint), () => 'fundings recorded (POST /admin/treasury/fundings): 2 SOL, 1000 USDC'),
  ]);
  writeFileSync(merchantFile, `${JSON.stringify(merchant)}\n`, { mode: 0o600 });
  return { stateDir, env, apiUrl, tls, client, psp, chain, mail, merchant, funded, priceUrl: price.url };
}

const MARKER = '.production-local';

/** A fresh state directory (the previous run's certificates, logs and mail go); one we did not make is refused. */
export function freshStateDir(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0 && !existsSync(path.join(dir, MARKER))) {
    throw new Error(`${dir} is not empty and was not made by production-local: it is left alone; pass another --state-dir`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'logs'), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(dir, MARKER), 'made by npm run production-local; emptied by its next run\n');
}
