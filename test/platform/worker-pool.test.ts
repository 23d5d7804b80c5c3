/**
 * With both roles in one process on PostgreSQL, the worker claims on its own pool (main.ts,
 * services.ts `workerDb`): a delivery goes out while every connection of the API's pool is taken.
 * On one shared pool the same delivery waits for an API connection (measured in bench/README.md:
 * the `webhooks` scenario's p50 from state change to delivery fell from ~850 to ~50 ms).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/logger.ts';
import { webhookDeliveryJob } from '../../src/modules/webhooks/job.ts';
import { createServices } from '../../src/services.ts';
import { startWorker } from '../../src/platform/worker.ts';
import { testConfig } from '../helpers/app.ts';
import { emptyPostgresDatabase } from '../helpers/database.ts';
import { waitFor } from '../helpers/processes.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function receiver(): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received: () => received };
}

describe.runIf(process.env.DATABASE_URL)('the worker role’s own pool', () => {
  it('delivers while every connection of the API pool is held', async () => {
    const target = (await emptyPostgresDatabase())!;
    cleanups.push(target.drop);
    const open = async (poolMax: number) => {
      const handle: DatabaseHandle = await openDatabase({ driver: 'postgres', url: target.url, poolMax });
      cleanups.push(handle.close);
      return handle.db;
    };
    const apiDb = await open(1);
    await migrateToLatest(apiDb);
    const config = testConfig({ DATABASE_URL: target.url, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_WORKER_INTERVAL_MS: '60000' });
    const services = await createServices({ config, db: apiDb, workerDb: await open(2), clock: systemClock });
    cleanups.push(() => services.webhooks.close());
    cleanups.push(() => services.webhookDelivery.close());

    const { merchant } = await services.merchants.createMerchant({ name: 'Worker Pool' }, { actor: 'test' });
    const hooks = await receiver();
    const endpoint = await services.webhooks.createEndpoint(merchant.id, { url: hooks.url });
    await services.webhooks.sendTest(merchant.id, endpoint.id);

    // The API pool's only connection, held until the delivery has arrived.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = apiDb.transaction().execute(() => held);
    cleanups.push(() => (release(), holding));

    const worker = startWorker([webhookDeliveryJob(services.webhookDelivery, config.webhooks, createMetrics())], createLogger('silent'), services.notifications);
    cleanups.push(() => worker.stop());
    await waitFor(async () => (hooks.received() === 1 ? true : undefined), 4000);
    expect(hooks.received()).toBe(1);
  });
});
