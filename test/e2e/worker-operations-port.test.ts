/**
 * A worker-only process's health and metrics (issue 40): with ROLES=worker it had no listener, so
 * its jobs', sponsor's and treasury's metrics never reached Prometheus and their alerts could not
 * fire. Given OPERATIONS_PORT it serves /healthz, /readyz and /metrics there, and no other route;
 * without it, it listens on nothing, as before (several workers on one host need no port each).
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runTs, waitFor } from '../helpers/processes.ts';

describe('a worker-only process with OPERATIONS_PORT', () => {
  let dataDir: string;
  let base: string;
  let worker: ReturnType<typeof runTs>;
  let output = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'exchange-worker-ops-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    worker = runTs('src/main.ts', [], { DATA_DIR: dataDir, ROLES: 'worker', OPERATIONS_PORT: String(port), LOG_LEVEL: 'info' });
    worker.stdout!.on('data', (chunk) => (output += chunk));
    worker.stderr!.on('data', (chunk) => (output += chunk));
    await waitFor(async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 180_000).catch((err: Error) => {
      worker.kill('SIGKILL');
      throw new Error(`${err.message}\n${output}`);
    });
  }, 200_000);

  afterAll(async () => {
    if (worker.exitCode === null) {
      const exited = once(worker, 'exit');
      worker.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves its health and its worker metrics there, and no API route', async () => {
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    // The jobs' gauges appear once the worker has taken them.
    const metrics = await waitFor(async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      return /^worker_job_lag_seconds\{job_name="order-steps"\}/m.test(text) ? text : undefined;
    }, 30_000);
    expect(metrics).toMatch(/^worker_job_interval_seconds\{job_name="webhook-delivery"\}/m);
    for (const url of ['/api/v1/merchant', '/docs', '/app/']) expect((await fetch(`${base}${url}`)).status, url).toBe(404);
    expect(output).toMatch(/"msg":"worker started"/);
  });
});
