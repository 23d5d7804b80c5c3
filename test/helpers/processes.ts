import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Node's compile cache for the children of a test run (the checkout's own, in node_modules/.cache):
 * it keeps the type-stripped and compiled code of the ~2,300 modules a service loads. A service
 * then starts on about 2.1 s of CPU instead of 3.1 s, and the suite starts some hundred of them
 * (CLI commands included) on two cores. Entries are keyed by file contents and Node's version.
 */
const COMPILE_CACHE = fileURLToPath(new URL('../../node_modules/.cache/node-compile-cache', import.meta.url));

/** Runs a TypeScript entry point of ours in a child Node process as production does: plain node, native type stripping. */
export function runTs(script: string, args: string[], env: Record<string, string>, options: { stdin?: boolean } = {}): ChildProcess {
  return spawn(process.execPath, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_COMPILE_CACHE: COMPILE_CACHE, ...env },
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
}

/** A simulator (PSP, chain) started as its own process: the child and the one JSON line it prints when ready. */
export async function startReadyProcess(script: string, args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; ready: Record<string, any> }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const child = runTs(script, args, env);
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, ready: JSON.parse(line) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Runs to its exit; `stdin`, when given, is written to the child's standard input (then closed). */
export async function runTsToEnd(script: string, args: string[], env: Record<string, string>, options: { stdin?: string } = {}) {
  const child = runTs(script, args, env, { stdin: options.stdin !== undefined });
  if (options.stdin !== undefined) {
    // A child that exits before reading (a refused argument) closes the pipe: not the test's failure.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(options.stdin);
  }
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  // 'close', not 'exit': a child's exit can arrive before the last of its output is read (seen under
  // load: a refusal's one line lost, stderr empty).
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface DemoCredentials {
  merchantId: string;
  apiKey: string;
  apiSecret: string;
  /** The demo OWNER (TOTP not enrolled). */
  owner: { email: string; password: string };
  /** The demo operator (ADMIN) of the back office. */
  operator: { email: string; password: string };
}

export interface RunningService {
  base: string;
  dataDir: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  demoCredentials(): Promise<DemoCredentials>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  exitCode(): number | null;
}

/** How long startService waits for /healthz: a test's hook that starts one gives it more. */
export const START_WAIT_MS = 180_000;

/** A port another process took between freePort's answer and the child's bind: the start is tried again on another. */
class PortTaken extends Error {}

/** Ports a start without PORT may try: freePort's answer can be taken before the child binds it. */
const START_PORT_TRIES = 3;

/**
 * `src/main.ts` in its own process on the embedded defaults, answering /healthz. Generous wait:
 * other test files share the two cores while a first embedded start migrates a new PGlite (alone,
 * a fresh start takes a few seconds; the README promises 15 s). Seen: 85 s for a first start with
 * five test runs on two cores, hence three minutes. Without PORT in `env`, a port another process
 * took before the child bound it is replaced by another (`pickPort`, freePort by default), up to
 * three times.
 */
export async function startService(dataDir: string, env: Record<string, string> = {}, pickPort: () => Promise<number> = freePort): Promise<RunningService> {
  if (env.PORT !== undefined) return startOn(dataDir, Number(env.PORT), env);
  for (let tries = 1; ; tries++) {
    try {
      return await startOn(dataDir, await pickPort(), env);
    } catch (err) {
      if (!(err instanceof PortTaken) || tries >= START_PORT_TRIES) throw err;
    }
  }
}

async function startOn(dataDir: string, port: number, env: Record<string, string>): Promise<RunningService> {
  const base = `http://127.0.0.1:${port}`;
  const server = runTs('src/main.ts', [], { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ...env });
  let output = '';
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  // 'close' follows the exit once the child's output is all read (its last line may arrive after the exit).
  const closed = once(server, 'close');
  // A child that exits first (a port another test took meanwhile, a crash) fails the start at once,
  // with its output: polling on would wait out the three minutes, or reach another test's service.
  // Each poll gives up after a second: whatever holds a taken port may never answer.
  const healthy = async () => (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1000) })).ok;
  const started = await waitFor(async () => (server.exitCode !== null || server.signalCode !== null ? 'exited' : (await healthy()) ? 'healthy' : undefined), START_WAIT_MS).catch(
    (err: Error) => {
      server.kill('SIGKILL');
      throw new Error(`${err.message}\n${output}`);
    },
  );
  if (started === 'exited') {
    await closed;
    const message = `the service exited (${server.exitCode ?? server.signalCode}) before it answered /healthz\n${output}`;
    throw output.includes(`port ${port} on 127.0.0.1 is already in use`) ? new PortTaken(message) : new Error(message);
  }
  return {
    base,
    dataDir,
    output: () => output,
    demoCredentials: async () => JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials,
    exitCode: () => server.exitCode,
    async stop() {
      if (server.exitCode !== null) return server.exitCode;
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      return ((await exited) as [number | null])[0];
    },
  };
}
