/**
 * Several worker processes on one PostgreSQL (skipped on PGlite runs: one process only there).
 * Each "process" has its own connection pool and its own notifications hub: a NOTIFY from one
 * wakes the other's sleeping worker; a worker process killed (SIGKILL) in the middle of an attempt
 * leaves its delivery to another worker once the lease lapses.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../src/db/database.ts';
import { createPostgresNotifications, type Notifications } from '../../../src/platform/notifications.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { systemClock } from '../../../src/lib/clock.ts';
import { createLogger } from '../../../src/logger.ts';
import { webhookDeliveryJob } from '../../../src/modules/webhooks/job.ts';
import { createServices, type Services } from '../../../src/services.ts';
import { startWorker, type Worker } from '../../../src/platform/worker.ts';
import { testConfig } from '../../helpers/app.ts';
import { migratedPostgresDatabase } from '../../helpers/database.ts';
import { runTs, waitFor } from '../../helpers/processes.ts';
import { type Receiver, startReceiver, verify } from './helpers.ts';

const env = { WEBHOOK_WORKER_INTERVAL_MS: '600000', WEBHOOK_TIMEOUT_MS: '3000', WEBHOOK_CLAIM_LEASE_MS: '8000', WEBHOOK_RETRY_SCHEDULE: '0' };
const config = testConfig(env);

describe('worker processes on one PostgreSQL', () => {
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  const cleanups: Array<() => Promise<unknown>> = [];
  /** One "process": its own pool, hub and services. */
  const processes: Array<{ database: DatabaseHandle; hub: Notifications; services: Services }> = [];
  let receiver: Receiver;

  async function newProcess() {
    const database = await openDatabase({ driver: 'postgres', url: url!, poolMax: 4 });
    const hub = createPostgresNotifications({ url: url! });
    const services = await createServices({ config, db: database.db, clock: systemClock, notifications: hub });
    const created = { database, hub, services };
    processes.push(created);
    return created;
  }

  beforeAll(async () => {
    const empty = await migratedPostgresDatabase();
    if (!empty) return;
    url = empty.url;
    drop = empty.drop;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    for (const { hub, database, services } of processes) {
      await services.webhooks.close();
      await hub.close();
      await database.close();
    }
    await receiver?.close();
    await drop?.();
  });

  async function merchantWithEndpoint(services: Services) {
    const { merchant } = await services.merchants.createMerchant({ name: 'Two processes' }, { actor: 'test' });
    const endpoint = await services.webhooks.createEndpoint(merchant.id, { url: receiver.url });
    return { merchantId: merchant.id, endpoint };
  }

  it('a NOTIFY from another process wakes a sleeping worker at once', async (ctx) => {
    if (!url) return ctx.skip();
    const api = await newProcess();
    const workerProcess = await newProcess();
    const { merchantId, endpoint } = await merchantWithEndpoint(api.services);
    await workerProcess.hub.ready();
    const worker: Worker = startWorker(
      [webhookDeliveryJob(workerProcess.services.webhooks, config.webhooks, createMetrics())],
      createLogger('silent'),
      workerProcess.hub,
    );
    cleanups.push(() => worker.stop());
    // Its first pass (at start) finds nothing; then it sleeps for its 10-minute sweep interval.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const seen = receiver.requests.length;

    const started = Date.now();
    const delivery = await api.services.webhooks.sendTest(merchantId, endpoint.id);
    const [request] = (await receiver.waitFor(seen + 1, 5000)).slice(seen);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(verify(endpoint.secret, request!).deliveryId).toBe(delivery.id);
    // Stop once the outcome is recorded (stopping first would abort the attempt and give it back).
    await waitFor(async () => ((await api.services.webhooks.getDelivery(merchantId, delivery.id)).status === 'SUCCEEDED' ? true : undefined), 5000);
    await worker.stop();
  });

  it('a worker process killed in the middle of an attempt leaves the delivery to be retried, same deliveryId', async (ctx) => {
    if (!url) return ctx.skip();
    const api = await newProcess();
    const { merchantId, endpoint } = await merchantWithEndpoint(api.services);
    receiver.respondWith(0); // the first attempt hangs
    const seen = receiver.requests.length;
    const delivery = await api.services.webhooks.sendTest(merchantId, endpoint.id);

    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'worker-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const child = runTs('src/main.ts', [], {
      ...env,
      NODE_ENV: 'test',
      ROLES: 'worker',
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WEBHOOK_SECRET_KEY: config.webhookSecretKey!,
      // The platform keys the other processes sealed in this database open only under the same KEK.
      WALLET_KEK: config.walletKek!,
    });
    cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
    await receiver.waitFor(seen + 1, 30_000);
    child.kill('SIGKILL');
    const held = await api.services.webhooks.getDelivery(merchantId, delivery.id);
    expect(held).toMatchObject({ status: 'PENDING', attemptCount: 0 });

    // Another worker takes it over once the dead one's lease (8 s) has lapsed.
    const killedAt = Date.now();
    const done = await waitFor(async () => {
      await api.services.webhooks.runDeliveryPass();
      const current = await api.services.webhooks.getDelivery(merchantId, delivery.id);
      return current.status === 'SUCCEEDED' ? current : undefined;
    }, 20_000);
    expect(Date.now() - killedAt).toBeGreaterThan(3000);
    expect(done.attemptCount).toBe(1);
    const ids = receiver.requests.slice(seen).map((request) => request.headers['webhook-id']);
    expect(ids.filter((id) => id === delivery.id)).toEqual([delivery.id, delivery.id]);
  });
});
