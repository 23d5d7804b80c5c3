/**
 * Issue 40's must-show for `npm run production-local`, run as a person runs it: its own process
 * group, on the local PostgreSQL server (127.0.0.1:5432, as the README says). `--smoke --hold`
 * starts everything, runs a PAYIN and a PAYOUT to COMPLETED through the https API and the
 * simulators, checks the deposit swept and the treasury's drift 0 (scripts/production-local/
 * smoke.ts), and keeps running; then SIGINT to the command alone must stop every process it
 * started, each exiting 0, none left behind. (A terminal's Ctrl-C reaches the whole group, the
 * children included, which stop by themselves then: the command's own stop is what this holds.)
 * And a database of that name that production-local did not make is never dropped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const SERVER = 'postgresql://postgres@127.0.0.1:5432';
/** PRODUCTION_LOCAL_TEST_DATABASE: a name of one's own on a shared server. */
const DATABASE = process.env.PRODUCTION_LOCAL_TEST_DATABASE ?? `exchange_production_local_e2e_${process.pid}`;

/** The pids whose parent is `pid`, read from /proc (Linux). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after its closing parenthesis.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether the process still runs (a zombie, exited but not yet reaped, does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

function start(args: string[]): { child: ChildProcess; output: () => string; waitFor: (text: string, timeoutMs: number) => Promise<void> } {
  // detached: a process group of its own, as a terminal gives a command (and the test can kill it whole if it hangs).
  const child = spawn(process.execPath, ['scripts/production-local/main.ts', ...args], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    output: () => output,
    waitFor: async (text, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (!output.includes(text)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no "${text}" (exit ${child.exitCode}):\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

async function serverQuery(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await serverQuery(`drop database if exists ${DATABASE} with (force)`);
});

describe('npm run production-local', () => {
  it('--smoke: a PAYIN and a PAYOUT COMPLETED, the sweep done, drift 0; then SIGINT stops every process it started', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'production-local-e2e-'));
    const run = start(['--smoke', '--hold', '--database', DATABASE, '--state-dir', stateDir]);
    try {
      // A first start on two busy cores: module loading of six processes, the migrations, the smoke run.
      await run.waitFor('Ctrl-C stops everything', 150_000);
      for (const step of ['PAYIN', 'PAYOUT', 'sweep', 'treasury']) expect(run.output()).toMatch(new RegExp(`✓ smoke: ${step} `));
      expect(run.output()).toMatch(/✓ smoke: treasury +SOL on chain [\d.]+, books [\d.]+, drift 0; USDC on chain [\d.]+, books [\d.]+, drift 0/);
      const started = childrenOf(run.child.pid!);
      // The chain and PSP simulators, the api process and the worker.
      expect(started.length).toBe(4);

      const exited = once(run.child, 'exit');
      run.child.kill('SIGINT');
      const [code] = (await exited) as [number | null];
      expect(code, run.output()).toBe(0);
      expect(run.output()).toContain('stopped: 4 processes ended, each with exit 0; none left running');
      expect(started.filter(alive)).toEqual([]);
      // Each service process drained and said so in its log.
      for (const log of ['api-1.log', 'worker-1.log']) expect(readFileSync(path.join(stateDir, 'logs', log), 'utf8')).toContain('"msg":"shutdown complete"');
    } finally {
      // Whatever failed, nothing of this run outlives the test: its process group (orphans stay in it) is killed.
      try {
        process.kill(-run.child.pid!, 'SIGKILL');
      } catch {
        // ESRCH: the group is empty, as it should be.
      }
    }
  }, 180_000);

  it('never drops a database of that name it did not make: refused, one line, the database still there', async () => {
    const foreign = `${DATABASE}_foreign`;
    await serverQuery(`create database ${foreign}`);
    try {
      const run = start(['--database', foreign, '--free-ports', '--state-dir', mkdtempSync(path.join(tmpdir(), 'production-local-e2e-'))]);
      const [code] = (await once(run.child, 'exit')) as [number | null];
      expect(code).toBe(1);
      expect(run.output()).toContain(`✗ postgres         database ${foreign} exists and was not made by production-local: it is left alone; pass another --database`);
      expect(await serverQuery('select 1 from pg_database where datname = $1', [foreign])).toHaveLength(1);
    } finally {
      await serverQuery(`drop database if exists ${foreign} with (force)`);
    }
  }, 60_000);
});
