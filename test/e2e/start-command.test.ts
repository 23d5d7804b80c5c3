/**
 * The README's start command, as a container runs it: `npm start` is the process that gets
 * SIGTERM, and the server behind it must shut down gracefully (npm's script execs node, so no
 * shell sits between them to swallow the signal).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, waitFor } from '../helpers/processes.ts';

describe('npm start', () => {
  it('runs plain node and shuts down gracefully on SIGTERM to the command it was started with', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-start-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const npm = spawn('npm', ['start'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout!.on('data', (chunk) => (output += chunk));
    npm.stderr!.on('data', (chunk) => (output += chunk));
    try {
      await waitFor(async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 60_000);
      // The script is `exec node [V8 flags] src/main.ts`: the server is npm's direct child, no tsx loader in between.
      expect(output).toMatch(/exec node (--[\w-]+(=\S+)? )*src\/main\.ts/);
      expect((await fetch(`${base}/api/v1/merchant`)).status).toBe(401);

      npm.kill('SIGTERM');
      const [code] = (await once(npm, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(output).toMatch(/"signal":"SIGTERM","msg":"shutting down"/);
      expect(output).toContain('"msg":"shutdown complete"');
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    } finally {
      npm.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
