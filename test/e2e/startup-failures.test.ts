/**
 * Issue 15, operations: the start-up failures an operator meets print one line naming the fix,
 * no stack trace; the port is bound before the database is opened, migrated and seeded, so a
 * port in use is reported before any of that happens.
 */
import { once } from 'node:events';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenEarly } from '../../src/http/early-server.ts';
import { MISSING_KEYS_FIX, PlatformKeyError } from '../../src/modules/platform-keys/service.ts';
import { explainStartupFailure } from '../../src/startup-failure.ts';
import { startChainSimulator } from '../../tools/chain-simulator/index.ts';
import { freePort, runTsToEnd, START_WAIT_MS, startService } from '../helpers/processes.ts';
import { expectOneLine, productionKeys, startToExit } from '../helpers/startup-failures.ts';

const settings = { host: '127.0.0.1', port: 3000, databaseUrl: 'postgresql://app:pw@db.internal:5433/exchange', dataDir: '/data' };

describe('explainStartupFailure', () => {
  it('names the fix of each known failure, found anywhere in the cause chain, and never the password', () => {
    const coded = (code: string, message = code) => Object.assign(new Error(message), { code });
    expect(explainStartupFailure(coded('EADDRINUSE'), settings)).toMatch(/^port 3000 on 127\.0\.0\.1 is already in use: .*set PORT/);
    const missing = new Error('migration (unknown) failed', { cause: coded('3D000', 'database "exchange" does not exist') });
    expect(explainStartupFailure(missing, settings)).toBe('database "exchange" does not exist on db.internal:5433: create it (createdb -h db.internal exchange) or fix DATABASE_URL');
    const refused = Object.assign(new AggregateError([coded('ECONNREFUSED')], ''), { code: 'ECONNREFUSED' });
    expect(explainStartupFailure(refused, settings)).toBe('cannot reach PostgreSQL at db.internal:5433 (ECONNREFUSED): start it, or fix DATABASE_URL');
    expect(explainStartupFailure(new Error('x', { cause: new AggregateError([coded('ETIMEDOUT')]) }), settings)).toMatch(/ETIMEDOUT/);
    expect(explainStartupFailure(coded('28P01'), settings)).toMatch(/refused the credentials/);
    expect(explainStartupFailure(coded('EMBEDDED_DATABASE_LOCKED', 'the embedded database in /data is in use by process 7; stop it first'), settings)).toMatch(/in use by process 7/);
    // Production without its platform keys (src/modules/platform-keys/service.ts): the message names the admin command.
    const missingKeys = new PlatformKeyError('PLATFORM_KEYS_MISSING', `no TREASURY key in the database: ${MISSING_KEYS_FIX}`);
    expect(explainStartupFailure(missingKeys, settings)).toBe('no TREASURY key in the database: run `npm run admin -- create-platform-keys` once (or bring an existing keypair with `npm run admin -- import-platform-key --purpose sponsor|treasury`)');
    for (const known of ['EADDRINUSE', '3D000', 'ECONNREFUSED', '28P01']) expect(explainStartupFailure(coded(known), settings)).not.toMatch(/pw/);
    expect(explainStartupFailure(new TypeError('undefined is not a function'), settings)).toBeUndefined();
  });
});

describe('the early server', () => {
  it('answers 503 SERVICE_UNAVAILABLE with the Error object until opened, then the app answers', async () => {
    const early = await listenEarly('127.0.0.1', 0);
    const { port } = early.server.address() as { port: number };
    try {
      const starting = await fetch(`http://127.0.0.1:${port}/api/v1/merchant`);
      expect(starting.status).toBe(503);
      expect(starting.headers.get('retry-after')).toBe('1');
      const body = (await starting.json()) as { error: string; requestId: string };
      expect(body.error).toBe('SERVICE_UNAVAILABLE');
      expect(body.requestId).toBe(starting.headers.get('x-request-id'));
      early.lend((_request, response) => response.end('app'));
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(503);
      early.open();
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('app');
    } finally {
      await early.close();
    }
  });
});

describe('npm start: known start-up failures', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-startup-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const start = (env: Record<string, string>) => startToExit(dataDir, env);

  it('a configured Token-2022 mint with a transfer fee: one line naming the token, the fee and the decision', async () => {
    const chain = await startChainSimulator({ slotMs: 50 });
    try {
      const { mint } = await chain.createMint({ decimals: 6, program: 'token-2022', extensions: { transferFee: { basisPoints: 25, maximumFee: '1000000' }, transferHook: {} } });
      // Its own data directory: this start gets past the development keys (written there) before the mint stops it.
      const ownDataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-startup-mint-'));
      const result = await start({ PORT: String(await freePort()), CHAIN_PROVIDER: 'solana-rpc', SOLANA_RPC_URL: chain.url, CHAIN_TOKEN_MINTS: `USDC:${mint}`, DATA_DIR: ownDataDir }).finally(() => rm(ownDataDir, { recursive: true, force: true }));
      expectOneLine(result, new RegExp(`^fatal: the USDC mint ${mint} is refused: its transfer fee is 25 basis points \\(maximum 1000000 base units\\) \\(docs/decisions/0043-token-2022-extensions\\.md\\)$`));
    } finally {
      await chain.close();
    }
  });

  it('a port in use: one line, before the embedded database is created, migrated or seeded', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port } = holder.address() as { port: number };
    try {
      const result = await start({ PORT: String(port) });
      expectOneLine(result, new RegExp(`^fatal: port ${port} on 127\\.0\\.0\\.1 is already in use: .*set PORT`));
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      holder.close();
    }
  });

  it("the tests' startService: a service that exits before it answers fails the start at once, with its line", async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port } = holder.address() as { port: number };
    try {
      // Waiting for /healthz instead would outlast this test's 30 s (three minutes).
      await expect(startService(dataDir, { PORT: String(port) })).rejects.toThrow(new RegExp(`exited \\(1\\) before it answered /healthz\\n[\\s\\S]*port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      holder.close();
    }
  });

  it('PostgreSQL unreachable: one line naming DATABASE_URL', async () => {
    const result = await start({ PORT: String(await freePort()), DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/exchange' });
    expectOneLine(result, /^fatal: cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\): start it, or fix DATABASE_URL$/);
  });

  it('the embedded database locked by a running process: one line naming the process', async () => {
    const locked = await mkdtemp(path.join(os.tmpdir(), 'exchange-locked-'));
    try {
      await writeFile(path.join(locked, 'pglite.lock'), String(process.pid));
      const result = await runTsToEnd('src/main.ts', [], { DATA_DIR: locked, LOG_LEVEL: 'warn', PORT: String(await freePort()) });
      expectOneLine(result, new RegExp(`^fatal: the embedded database in .* is in use by process ${process.pid}; stop it first`));
    } finally {
      await rm(locked, { recursive: true, force: true });
    }
  });

  it('production on the sandbox parts: one line per refusal naming the fix, no stack', async () => {
    const port = await freePort();
    const result = await start({ NODE_ENV: 'production', PORT: String(port), DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/exchange', ...productionKeys() });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('Invalid configuration:');
    expect(lines.slice(1).map((line) => line.replace(/^ {2}- /, '').split(' ')[0])).toEqual(['PIX_PROVIDER=sandbox', 'CHAIN_PROVIDER=sandbox', 'PRICE_SOURCE=sandbox', 'SOLANA_RPC_URL', 'EMAIL_PROVIDER=log']);
    const sandbox = await start({ NODE_ENV: 'production', SIMULATION_MODE: 'false', SANDBOX_ENABLED: 'true', PORT: String(port), DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/exchange', ...productionKeys() });
    expect(sandbox.stderr).toMatch(/^ {2}- SANDBOX_ENABLED=true is refused when NODE_ENV=production \(its routes fake payments and deposits\): unset it, or declare SIMULATION_MODE=true/m);
  });
});

describe("the tests' startService", () => {
  it("without PORT: a port taken before the service bound it is replaced by another", async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port: taken } = holder.address() as { port: number };
    const offered: number[] = [];
    const pickPort = async () => {
      const port = offered.length === 0 ? taken : await freePort();
      offered.push(port);
      return port;
    };
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-startup-port-'));
    try {
      const service = await startService(dataDir, {}, pickPort);
      try {
        expect(offered).toHaveLength(2);
        expect(service.base).toBe(`http://127.0.0.1:${offered[1]}`);
        expect((await fetch(`${service.base}/healthz`)).status).toBe(200);
      } finally {
        await service.stop();
      }
    } finally {
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, START_WAIT_MS + 60_000);
});
