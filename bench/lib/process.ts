/** Child processes of the run: spawn with the node binary directly (so the pid is the server's), wait, sample RSS, stop. */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Child {
  proc: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
}

/** Starts `node [nodeArgs] <script>` (native type stripping, as production runs) with stdout and stderr appended to logFile. */
export function startNode(script: string, options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string; nodeArgs?: string[]; args?: string[] }): Child {
  const fd = openSync(options.logFile, 'a');
  const proc = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', fd, fd],
  });
  if (proc.pid === undefined) throw new Error(`could not start ${script}`);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, pid: proc.pid, exited };
}

/** SIGTERM, then SIGKILL after graceMs. Resolves with the exit code. */
export async function stopChild(child: Child, graceMs = 15_000): Promise<number | null> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return child.proc.exitCode;
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), graceMs);
  const code = await child.exited;
  clearTimeout(timer);
  return code;
}

/** Polls url until it answers 200; returns the ms from `since` (performance.now()) to that answer. */
/** BENCH_HEALTHY_TIMEOUT_MS: how long a start may take (30 s; more on a machine shared with other work). */
const HEALTHY_TIMEOUT_MS = Number(process.env.BENCH_HEALTHY_TIMEOUT_MS ?? 30_000);

export async function waitHealthy(url: string, since: number, child: Child, timeoutMs = HEALTHY_TIMEOUT_MS): Promise<number> {
  const deadline = since + timeoutMs;
  while (performance.now() < deadline) {
    if (child.proc.exitCode !== null) throw new Error(`process exited with ${child.proc.exitCode} before ${url} answered (see its log)`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`${url} not healthy within ${timeoutMs} ms`);
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** VmRSS of a pid in MB, or undefined when it is gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a pid's RSS every 100 ms until stopped; stop() returns the peak in MB. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number } {
  let peak = rssMb(pid) ?? 0;
  const timer = setInterval(() => {
    const value = rssMb(pid);
    if (value !== undefined && value > peak) peak = value;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const value = rssMb(pid);
      if (value !== undefined && value > peak) peak = value;
      return peak;
    },
  };
}
