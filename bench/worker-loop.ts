/**
 * Informal: the delivery worker alone, in one process, against PostgreSQL: a backlog of events
 * recorded at once for one merchant whose endpoints are local receivers, then the worker's
 * pipeline (startWorker + webhookDeliveryJob) until every delivery has arrived.
 * Run: node bench/worker-loop.ts [events] [endpoints] [perEndpointConcurrency]
 * (BENCH_PG_URL names the server; a database is created and dropped.)
 */
import { createServer } from 'node:http';
import { inTransaction } from '../src/platform/commit-signals.ts';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createInProcessNotifications } from '../src/platform/notifications.ts';
import { recordEvent } from '../src/platform/outbox.ts';
import { createMetrics } from '../src/http/metrics.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { webhookDeliveryJob } from '../src/modules/webhooks/job.ts';
import { generateDevSecrets, withSecrets } from '../src/runtime-config.ts';
import { createServices } from '../src/services.ts';
import { startWorker } from '../src/platform/worker.ts';
import { createDatabase, dropDatabase } from './lib/database.ts';

const [events = 5000, endpoints = 1, perEndpoint = 16] = process.argv.slice(2).map(Number);
const server = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `bench_worker_${Date.now()}`;
await createDatabase(server, name);
const url = new URL(server);
url.pathname = `/${name}`;
const handle = await openDatabase({ driver: 'postgres', url: url.toString(), poolMax: 10 });
try {
  await migrateToLatest(handle.db);
  const config = withSecrets(
    loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent', WEBHOOK_ENDPOINT_CONCURRENCY: String(perEndpoint), WEBHOOK_WORKER_INTERVAL_MS: '60000' }),
    generateDevSecrets(),
  );
  const notifications = createInProcessNotifications();
  const services = await createServices({ config, db: handle.db, clock: systemClock, notifications });
  const { merchant } = await services.merchants.createMerchant({ name: 'Bench' }, { actor: 'bench' });
  let received = 0;
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => (done = resolve));
  const servers = [];
  for (let i = 0; i < endpoints; i++) {
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(204).end();
        if (++received === events * endpoints) done();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    servers.push(receiver);
    await services.webhooks.createEndpoint(merchant.id, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` });
  }
  for (let done = 0; done < events; done += 500) {
    await inTransaction(handle.db, async (trx) => {
      for (let i = done; i < Math.min(events, done + 500); i++) {
        await recordEvent(trx, { merchantId: merchant.id, event: 'webhook.test', payload: { endpointId: merchant.id, message: 'bench', timestamp: new Date().toISOString() } });
      }
    });
  }
  const started = performance.now();
  const worker = startWorker([webhookDeliveryJob(services.webhooks, config.webhooks, createMetrics())], createLogger('silent'), notifications);
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 120_000))]);
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  await services.webhooks.close();
  for (const receiver of servers) receiver.close();
  console.log(JSON.stringify({ deliveries: received, expected: events * endpoints, endpoints, perEndpoint, seconds: Number(seconds.toFixed(2)), perSecond: Math.round(received / seconds) }));
} finally {
  await handle.close();
  await dropDatabase(server, name);
}
