/**
 * The README runs as written: its marked blocks (test/helpers/readme-blocks.ts), in order, as a
 * reader pastes them into a second terminal while `npm start` runs in the first. The service is a
 * real `npm start` on a free port with a temporary DATA_DIR; the reader's shell is one bash session
 * (`set -euo pipefail`, so any failing command fails its block) in a directory standing for the
 * project's: its `node_modules` is the project's and its `data` is the service's DATA_DIR.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../helpers/database.ts';
import { freePort, waitFor } from '../helpers/processes.ts';
import { readmeBlocks, type ReadmeBlock } from '../helpers/readme-blocks.ts';

const BLOCK_TIMEOUT_MS = 90_000;
const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' });

/** `npm start` from the project directory, answering /healthz; stop() sends SIGTERM and waits for the exit code. */
async function npmStart(env: Record<string, string>, port: number) {
  const child = spawn('npm', ['start'], { env: { ...baseEnv(), LOG_LEVEL: 'warn', ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await waitFor(async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok ? true : undefined), 120_000).catch((err: Error) => {
    child.kill('SIGKILL');
    throw new Error(`npm start did not answer: ${err.message}\n${output}`);
  });
  return {
    async stop(): Promise<number | null> {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      return ((await exited) as [number | null])[0];
    },
  };
}

/** The reader's terminal: one bash process; a block's output is what it printed before its end marker. */
function readerShell(cwd: string): { run(script: string, name: string): Promise<{ ok: boolean; stdout: string; stderr: string }>; close(): void } {
  const child: ChildProcess = spawn('bash', ['--noprofile', '--norc'], { cwd, env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdin!.on('error', () => {}); // a block that failed ended the shell: its block reports it
  child.stdin!.write('set -euo pipefail\n');
  return {
    async run(script, name) {
      const [outFrom, errFrom] = [stdout.length, stderr.length];
      await writeFile(path.join(cwd, `${name}.sh`), script);
      const marker = `@@${name} done@@`;
      child.stdin!.write(`source ./${name}.sh\nprintf '\\n%s\\n' '${marker}'\n`);
      const ended = await waitFor(async () => (stdout.includes(marker, outFrom) ? true : child.exitCode !== null ? false : undefined), BLOCK_TIMEOUT_MS).catch(() => false);
      return { ok: ended, stdout: stdout.slice(outFrom).replace(`${marker}\n`, ''), stderr: stderr.slice(errFrom) };
    },
    close: () => child.kill('SIGKILL'),
  };
}

describe('README', () => {
  let blocks: ReadmeBlock[];
  let readerDir: string;

  beforeAll(async () => {
    blocks = readmeBlocks(await readFile('README.md', 'utf8'));
    readerDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-readme-'));
    await symlink(path.resolve('node_modules'), path.join(readerDir, 'node_modules'), 'dir');
  });
  afterAll(() => rm(readerDir, { recursive: true, force: true }));

  it('marks its walkthrough runnable: a start, shell blocks, and a TypeScript file a later block runs', () => {
    expect(blocks.filter((block) => block.kind === 'server').length).toBeGreaterThanOrEqual(1);
    expect(blocks[0]!.kind).toBe('server');
    expect(blocks.filter((block) => block.kind === 'shell').length).toBeGreaterThanOrEqual(5);
    blocks.forEach((block, i) => {
      if (block.kind !== 'file') return;
      const later = blocks.slice(i + 1).some((next) => next.kind === 'shell' && next.script.includes(`node ${block.name}`));
      expect(later, `README line ${block.line}: ${block.name} is never run`).toBe(true);
    });
  });

  // The README's service runs on its embedded defaults whatever DATABASE_URL the suite has: once per CI run is enough.
  it.runIf(testDriver() === 'pglite')('every marked block runs as pasted, in order, against `npm start` on the embedded defaults', { timeout: 600_000 }, async () => {
    const port = await freePort();
    const local = (text: string) => text.replace(/\b(localhost|127\.0\.0\.1):3000\b/g, `$1:${port}`);
    const dataDir = path.join(readerDir, 'data');
    const shell = readerShell(readerDir);
    let service: Awaited<ReturnType<typeof npmStart>> | undefined;
    try {
      for (const [i, block] of blocks.entries()) {
        if (block.kind === 'server') {
          // The reader stops the server (Ctrl-C) before starting it again with other settings.
          if (service) expect(await service.stop(), `README line ${block.line}: the server stopped cleanly`).toBe(0);
          service = await npmStart({ ...block.env, DATA_DIR: dataDir }, port);
        } else if (block.kind === 'file') {
          await writeFile(path.join(readerDir, block.name), local(block.text));
        } else {
          const result = await shell.run(local(block.script), `readme-block-${i}`);
          const shown = `README line ${block.line} printed:\n${result.stdout}\nand on stderr:\n${result.stderr}`;
          expect(result.ok, `the block failed or hung. ${shown}`).toBe(true);
          for (const expected of block.expected) expect(result.stdout, shown).toMatch(expected);
        }
      }
    } finally {
      shell.close();
      await service?.stop();
    }
  });
});
