/**
 * The SDK as a merchant's developer gets it (issue 41): `npm pack` of sdk/, the tarball installed
 * into a fresh project by `npm ci` (offline, from npm's cache: tests reach only loopback), then
 * - a TypeScript consumer compiled by `tsc` under a standard NodeNext/strict configuration, no
 *   special flag, as an ES module and as CommonJS: it imports types and values, and a `switch` on
 *   `ExchangeApiError.code` holds a misspelt code as a type error (`@ts-expect-error`, itself an
 *   error if `code` were a plain string);
 * - that compiled consumer run with plain `node` 24 (the project's) and 20 (the machine's, when
 *   present), ESM and CommonJS, against a started service: a receiver, a 422 KYC_NOT_APPROVED
 *   narrowed by its code, a 404 thrown by `client.api`, a PAYIN to COMPLETED in the sandbox, its
 *   webhook delivered to a loopback server and verified into a typed `order.completed` event.
 * The tarball holds compiled JavaScript and declarations only: no TypeScript source, no `.ts` path.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomCpf } from '../helpers/documents.ts';
import { type RunningService, startService } from '../helpers/processes.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
/** Its own service on its own embedded database: the file runs once, whatever the run's driver. */
const ADMIN_TOKEN = 'packed-sdk-admin-token-0123456789abcdef0123';
/** The machine's own Node 20 (Debian's), the oldest the SDK's `engines` accepts. */
const NODE_20 = '/usr/bin/node';

/**
 * The consumer, in TypeScript: type-checked and compiled by `tsc` from the same text as an ES
 * module (consumer.mts) and as CommonJS (consumer.cts), then run with plain node against the
 * service. `meaning` narrows `ExchangeApiError.code`: its misspelt case is a type error (held by
 * `@ts-expect-error`, which is itself an error if `code` were a plain string).
 */
const TS_CONSUMER = `import * as http from 'node:http';
import { createExchangeClient, ExchangeApiError, type ErrorCode, type Order, SDK_VERSION, verifyWebhook, type WebhookEvent } from '@crypto-brl-exchange/sdk';

export function meaning(err: unknown): string {
  if (!(err instanceof ExchangeApiError)) return 'no answer';
  const code: ErrorCode = err.code;
  switch (code) {
    case 'KYC_NOT_APPROVED':
      return 'approve the receiver first';
    // @ts-expect-error: a code the catalogue does not have is not comparable to ErrorCode
    case 'KYC_NOT_APROVED':
      return 'never';
    default:
      return code;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const [baseUrl, apiKey, apiSecret, document] = process.argv.slice(2) as [string, string, string, string];
  const deliveries: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];
  const hooks = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      deliveries.push({ body, headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  const { port } = hooks.address() as { port: number };
  const client = createExchangeClient({ baseUrl, auth: { apiKey, apiSecret } });
  const endpoint = await client.webhooks.endpoints.create({ url: 'http://127.0.0.1:' + port + '/hooks' });
  const receiver = await client.receivers.create({ type: 'PF', document, name: 'Ana Pacote', email: 'ana@example.com', walletAddress: '${WALLET}', limits: { nightTransactionsEnabled: true } });
  let refused = '';
  try {
    await client.payins.create({ receiverId: receiver.id, amountBrl: 50 });
  } catch (err) {
    refused = err instanceof ExchangeApiError ? err.status + ' ' + err.code + ': ' + meaning(err) : String(err);
  }
  // client.api throws the same errors: there is no { error } to check.
  let apiRefused = '';
  try {
    await client.api.POST('/receivers/{id}/wallet-ownership/proofs', { params: { path: { id: receiver.id } }, body: { challengeId: '00000000-0000-4000-8000-000000000000', signature: '1'.repeat(64) } });
  } catch (err) {
    apiRefused = err instanceof ExchangeApiError ? err.status + ' ' + err.code : String(err);
  }
  await client.sandbox.decideKyc(receiver.id, { decision: 'APPROVE' });
  const payin = await client.payins.create({ receiverId: receiver.id, amountBrl: 50 });
  await client.sandbox.payPixCharge(payin.id);
  const until = Date.now() + 60000;
  let order: Order = payin;
  while (order.status !== 'COMPLETED' && Date.now() < until) {
    await pause(200);
    order = await client.orders.get(payin.id);
  }
  let txHash: string | undefined;
  let events: WebhookEvent[] = [];
  while (txHash === undefined && Date.now() < until) {
    events = deliveries.map((d) => verifyWebhook(d.body, d.headers, endpoint.secret)).filter((e) => 'orderId' in e && e.orderId === payin.id);
    // Narrowed by the event's name and order type: the PAYIN's completion carries its chain transfer.
    for (const event of events) if (event.event === 'order.completed' && event.type === 'PAYIN') txHash = event.txHash;
    if (txHash === undefined) await pause(100);
  }
  hooks.close();
  console.log(JSON.stringify({ refused, apiRefused, status: order.status, events: events.map((e) => e.event), txHash, version: SDK_VERSION }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
`;

/**
 * A standard NodeNext/strict configuration, as `tsc --init` writes it (skipLibCheck included: a
 * declaration the consumer cannot resolve would make `code` any, and the `@ts-expect-error` unused).
 */
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'] }, include: ['consumer.mts', 'consumer.cts'] };

type LockEntry = { version: string; integrity?: string; dependencies?: Record<string, string> } & Record<string, unknown>;

/**
 * A consumer project depending on the tarball and @types/node, with its lockfile: npm resolves a
 * range (`^0.17.0`) from the registry's metadata, which npm's cache does not hold after `npm ci`
 * (it fetches only tarballs, by the lockfile's versions). The lockfile names the versions this
 * repository's lockfile installed, so `npm ci --offline` takes every tarball from the cache.
 */
async function writeConsumerProject(project: string, tarball: string, integrity: string): Promise<void> {
  const rootLock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const sdk = JSON.parse(await readFile(path.join(ROOT, 'sdk/package.json'), 'utf8')) as { version: string; dependencies: Record<string, string>; engines: Record<string, string>; license: string };
  const typesNode = rootLock.packages['node_modules/@types/node']!.version;
  const packages: Record<string, LockEntry> = {
    '': { name: 'sdk-consumer', version: '1.0.0', dependencies: { '@crypto-brl-exchange/sdk': `file:${tarball}`, '@types/node': typesNode } },
    'node_modules/@crypto-brl-exchange/sdk': { version: sdk.version, resolved: `file:${tarball}`, integrity, license: sdk.license, dependencies: sdk.dependencies, engines: sdk.engines },
  };
  const pending = [...Object.keys(sdk.dependencies), '@types/node'];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (packages[`node_modules/${name}`]) continue;
    const entry = rootLock.packages[`node_modules/${name}`];
    if (!entry) throw new Error(`${name} is not in the root lockfile at the top level`);
    packages[`node_modules/${name}`] = entry;
    pending.push(...Object.keys(entry.dependencies ?? {}));
  }
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, dependencies: packages['']!.dependencies }, null, 2));
  await writeFile(path.join(project, 'package-lock.json'), JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2));
}

describe('the SDK packed, installed in a fresh project, used with plain node and tsc', () => {
  let work: string;
  let project: string;
  let service: RunningService;
  let merchant: { apiKey: string; apiSecret: string };

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'exchange-sdk-pack-'));
    project = path.join(work, 'consumer');
    const [packed] = await Promise.all([
      run('npm', ['pack', '-w', '@crypto-brl-exchange/sdk', '--pack-destination', work, '--json'], { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 }),
      startService(path.join(work, 'data'), { ADMIN_TOKEN, LOG_LEVEL: 'warn', WEBHOOK_RETRY_SCHEDULE: '0,0' }).then((started) => (service = started)),
    ]);
    const [pack] = JSON.parse(packed.stdout) as Array<{ filename: string; integrity: string }>;
    await mkdir(project);
    await writeConsumerProject(project, `../${pack!.filename}`, pack!.integrity);
    await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
    const response = await fetch(`${service.base}/api/v1/admin/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Packed SDK Merchant' }),
    });
    merchant = ((await response.json()) as { credential: { apiKey: string; apiSecret: string } }).credential;
  }, 240_000);

  afterAll(async () => {
    await service?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('ships compiled JavaScript and declarations only, ESM and CommonJS, with honest engines', async () => {
    const installed = path.join(project, 'node_modules/@crypto-brl-exchange/sdk');
    const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')) as { version: string; engines: { node: string } };
    expect(manifest.engines.node).toBe('>=20.3');
    const files = await readdir(installed, { recursive: true, encoding: 'utf8' });
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'README.md', 'CHANGELOG.md']));
    for (const file of files.filter((name) => name.endsWith('.js'))) expect(await readFile(path.join(installed, file), 'utf8'), file).not.toMatch(/(from|require\()\s*['"]\.{1,2}\/[^'"]+\.ts['"]/);
    const source = await readFile(path.join(ROOT, 'sdk/src/client.ts'), 'utf8');
    expect(source).toContain(`SDK_VERSION = '${manifest.version}'`);
  });

  it('compiles a TypeScript consumer, ESM and CommonJS, under a standard NodeNext/strict tsconfig; a misspelt error code does not', async () => {
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    // Without the expectation the typo is an error: the code really is the catalogue's union.
    const misspelt = TS_CONSUMER.replace(/ *\/\/ @ts-expect-error.*\n/, '');
    await Promise.all(['mts', 'cts'].map((ext) => writeFile(path.join(project, `consumer.${ext}`), misspelt)));
    const failed = await run(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: project }).then(() => undefined, (err: { stdout: string }) => err.stdout);
    expect(failed).toMatch(/consumer\.mts\(\d+,\d+\): error TS2678: Type '"KYC_NOT_APROVED"' is not comparable to type/);
    expect(failed).toMatch(/consumer\.cts\(\d+,\d+\): error TS2678: Type '"KYC_NOT_APROVED"' is not comparable to type/);
    // As written, it compiles (and is emitted to out/consumer.mjs and out/consumer.cjs, which the runs below use).
    await Promise.all(['mts', 'cts'].map((ext) => writeFile(path.join(project, `consumer.${ext}`), TS_CONSUMER)));
    await expect(run(process.execPath, [tsc, '-p', project], { cwd: project })).resolves.toBeDefined();
    expect(await readFile(path.join(project, 'out/consumer.cjs'), 'utf8')).toContain(`require("@crypto-brl-exchange/sdk")`);
    expect(await readFile(path.join(project, 'out/consumer.mjs'), 'utf8')).toContain(`from '@crypto-brl-exchange/sdk'`);
  }, 120_000);

  const nodes = [
    ['24', process.execPath],
    ['20', NODE_20],
  ] as const;
  for (const [major, node] of nodes) {
    for (const format of ['esm', 'cjs'] as const) {
      it.skipIf(!existsSync(node))(`runs the compiled consumer as ${format === 'esm' ? 'an ES module' : 'CommonJS'} on Node ${major}: a receiver, a typed 422, a PAYIN to COMPLETED, its webhook verified`, async () => {
        const file = path.join(project, `out/consumer.${format === 'esm' ? 'mjs' : 'cjs'}`);
        const { stdout } = await run(node, [file, `${service.base}/api/v1`, merchant.apiKey, merchant.apiSecret, randomCpf()], { cwd: project, timeout: 90_000 });
        const result = JSON.parse(stdout.trim().split('\n').pop()!) as { refused: string; apiRefused: string; status: string; events: string[]; txHash?: string; version: string };
        expect(result).toMatchObject({ refused: '422 KYC_NOT_APPROVED: approve the receiver first', apiRefused: '404 NOT_FOUND', status: 'COMPLETED' });
        expect(result.events).toEqual(expect.arrayContaining(['order.payment_received', 'order.completed']));
        expect(result.txHash).toBeTruthy();
        const { stdout: reported } = await run(node, ['--version']);
        expect(reported.trim()).toMatch(new RegExp(`^v${major}\\.`));
      }, 120_000);
    }
  }
});
