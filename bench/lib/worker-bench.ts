/**
 * Issue 13's scenarios: delivery throughput and latency of the event-driven worker, and the order
 * pipeline from a PIX notification to COMPLETED.
 *
 * Webhook events are produced the way another process of the service would: rows inserted into
 * the `events` outbox (each batch its own transaction, the payload's `timestamp` taken just before
 * the insert), then `pg_notify('outbox_events')` after the commit. So the figures are the worker's
 * (fan-out, claim, attempt, record), not the API's rate of producing events. Receivers are node:http
 * servers in this process, one port per endpoint; a hanging one accepts and never answers.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Api } from './api.ts';
import { withClient } from './database.ts';
import { pool, round } from './load.ts';
import { benchCnpj } from './webhooks.ts';

export interface DeliveryFigures {
  label: string;
  events: number;
  expected: number;
  delivered: number;
  duplicates: number;
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  timedOut: boolean;
  wallSeconds: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Receivers that record, per delivery, the time from the payload's timestamp to receipt. */
export class ReceiverFarm {
  readonly latencies: number[] = [];
  readonly seen = new Set<string>();
  duplicates = 0;
  first = 0;
  last = 0;
  private servers: Server[] = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  async start(count: number, options: { hang?: boolean } = {}): Promise<string[]> {
    const urls: string[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          if (options.hang) return; // accepts and never answers
          const receivedAt = Date.now();
          response.writeHead(204).end();
          const id = String(request.headers['webhook-id']);
          if (this.seen.has(id)) {
            this.duplicates++;
            return;
          }
          this.seen.add(id);
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
          this.latencies.push(receivedAt - Date.parse(body.timestamp));
          if (this.first === 0) this.first = receivedAt;
          this.last = receivedAt;
          this.waiters = this.waiters.filter((waiter) => (this.latencies.length >= waiter.count ? (waiter.resolve(), false) : true));
        });
      });
      server.keepAliveTimeout = 10_000;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.servers.push(server);
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${i}`);
    }
    return urls;
  }

  /** Resolves once `count` distinct deliveries arrived, or after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<void> {
    if (this.latencies.length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  figures(label: string, events: number, expected: number, since: number): DeliveryFigures {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const windowMs = Math.max(1, (this.last || Date.now()) - since);
    return {
      label,
      events,
      expected,
      delivered: sorted.length,
      duplicates: this.duplicates,
      deliveriesPerSecond: round((sorted.length / windowMs) * 1000),
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.at(-1) ?? NaN,
      timedOut: sorted.length < expected,
      wallSeconds: round(windowMs / 1000),
    };
  }

  async close() {
    for (const server of this.servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    this.servers = [];
  }
}

/**
 * Rounds of one condition, taken in turn with another condition's rounds, as one figure:
 * percentiles over every delivery of every round, the rate over the rounds' summed windows. A
 * p99 of 10-30 ms moves by half between two runs of the same code, so one round against one
 * round cannot tell a 20 % difference apart from the noise of the moment.
 */
export function pooledFigures(label: string, rounds: Array<{ farm: ReceiverFarm; figures: DeliveryFigures }>): DeliveryFigures {
  const sorted = rounds.flatMap(({ farm }) => farm.latencies).sort((a, b) => a - b);
  const sum = (pick: (figures: DeliveryFigures) => number) => rounds.reduce((total, { figures }) => total + pick(figures), 0);
  const wallSeconds = sum((figures) => figures.wallSeconds);
  return {
    label,
    events: sum((figures) => figures.events),
    expected: sum((figures) => figures.expected),
    delivered: sorted.length,
    duplicates: sum((figures) => figures.duplicates),
    deliveriesPerSecond: round(sorted.length / Math.max(0.001, wallSeconds)),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? NaN,
    timedOut: rounds.some(({ figures }) => figures.timedOut),
    wallSeconds: round(wallSeconds),
  };
}

/** Inserts `count` events for `merchantId` in one transaction, then NOTIFY after the commit (as the service does). */
export async function injectEvents(client: { query: (text: string, values?: unknown[]) => Promise<unknown> }, merchantId: string, count: number): Promise<void> {
  const ids: string[] = [];
  const payloads: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(randomUUID());
    payloads.push(JSON.stringify({ event: 'webhook.test', endpointId: merchantId, message: 'bench', timestamp: new Date().toISOString() }));
  }
  await client.query(
    `insert into events (id, merchant_id, event_type, payload) select id, $1, 'webhook.test', payload from unnest($2::uuid[], $3::jsonb[]) as t(id, payload)`,
    [merchantId, ids, payloads],
  );
  await client.query(`select pg_notify('outbox_events', '')`);
}

/** Registers one endpoint per URL for the merchant (at most 20 per merchant). */
export async function registerEndpoints(api: Api, urls: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const url of urls) ids.push((await api.post<{ id: string }>('/api/v1/webhook/endpoints', { url })).id);
  return ids;
}

/** A backlog of `events` events at once, delivered to the merchant's endpoints: deliveries per second. */
export async function deliverBacklog(
  dbUrl: string,
  farm: ReceiverFarm,
  merchants: Array<{ merchantId: string; endpoints: number }>,
  events: number,
  label: string,
  waitSeconds: number,
): Promise<DeliveryFigures> {
  const expected = merchants.reduce((sum, merchant) => sum + merchant.endpoints * events, 0);
  const started = Date.now();
  await withClient(dbUrl, async (client) => {
    for (const merchant of merchants) {
      for (let done = 0; done < events; done += 1000) await injectEvents(client, merchant.merchantId, Math.min(1000, events - done));
    }
  });
  await farm.waitFor(expected, waitSeconds * 1000);
  return farm.figures(label, events * merchants.length, expected, started);
}

/** Events at a steady `perSecond` for `seconds` (a batch every 10 ms): the time from state change to receipt. */
export async function deliverSteady(
  dbUrl: string,
  farm: ReceiverFarm,
  merchantId: string,
  options: { perSecond: number; seconds: number; label: string; waitSeconds: number; alsoTo?: { merchantId: string; perSecond: number } },
): Promise<DeliveryFigures> {
  const tickMs = 10;
  const ticks = (options.seconds * 1000) / tickMs;
  const started = Date.now();
  let sent = 0;
  await withClient(dbUrl, async (client) => {
    for (let tick = 0; tick < ticks; tick++) {
      const due = Math.round(((tick + 1) * tickMs * options.perSecond) / 1000) - sent;
      if (due > 0) {
        await injectEvents(client, merchantId, due);
        sent += due;
      }
      if (options.alsoTo && tick % 10 === 0) await injectEvents(client, options.alsoTo.merchantId, Math.round(options.alsoTo.perSecond / 10));
      const next = started + (tick + 1) * tickMs;
      if (next > Date.now()) await sleep(next - Date.now());
    }
  });
  await farm.waitFor(sent, options.waitSeconds * 1000);
  return farm.figures(options.label, sent, sent, started);
}

export interface PipelineFigures {
  orders: number;
  completed: number;
  notificationsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  timedOut: boolean;
}

/**
 * PAYIN orders created first; then their sandbox PIX payments at `perSecond` (each the provider's
 * notification); latency = the order.completed event's time − the order.payment_received event's
 * time, both from the database (the notification's transaction and the completing one).
 */
/**
 * `warmupSeconds` of payments at the same rate come first, unmeasured, in the same stream (as the
 * HTTP scenarios warm up): the first orders otherwise measure code paths run for the first time.
 */
export async function payinToCompleted(
  api: Api,
  dbUrl: string,
  options: { orders: number; perSecond: number; warmupSeconds: number; waitSeconds: number; log: (m: string) => void },
): Promise<PipelineFigures> {
  const receiver = await api.post<{ id: string }>('/api/v1/receivers', {
    type: 'PJ',
    document: benchCnpj(900_100),
    name: 'Bench Pipeline Receiver',
    email: 'pipeline@bench.example',
    walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
    limits: { nightTransactionsEnabled: true },
  });
  await api.post(`/api/v1/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
  const warmup = Math.round(options.warmupSeconds * options.perSecond);
  options.log(`payin-to-completed: creating ${warmup} + ${options.orders} PAYIN orders`);
  const all = await pool(warmup + options.orders, 20, 300_000, async () => (await api.post<{ id: string }>('/api/v1/payin', { receiverId: receiver.id, amountBrl: 100 })).id);
  const ids = all.slice(warmup);
  options.log(`payin-to-completed: paying them at ${options.perSecond}/s, the first ${warmup} as warm-up`);
  const started = Date.now();
  let measuredFrom = started;
  const payments: Array<Promise<unknown>> = [];
  for (let i = 0; i < all.length; i++) {
    const at = started + (i * 1000) / options.perSecond;
    if (at > Date.now()) await sleep(at - Date.now());
    if (i === warmup) measuredFrom = Date.now();
    payments.push(api.post(`/api/v1/sandbox/orders/${all[i]}/pix-payment`, {}));
  }
  await Promise.all(payments);
  const sent = Date.now();
  const deadline = Date.now() + options.waitSeconds * 1000;
  const query = `
    select extract(epoch from (c.created_at - p.created_at)) * 1000 as ms
    from events p join events c on c.payload->>'orderId' = p.payload->>'orderId' and c.event_type = 'order.completed'
    where p.event_type = 'order.payment_received' and p.payload->>'orderId' = any($1::text[])`;
  let latencies: number[] = [];
  while (Date.now() < deadline) {
    latencies = await withClient(dbUrl, async (client) => (await client.query<{ ms: string }>(query, [ids])).rows.map((row) => Number(row.ms)));
    if (latencies.length >= ids.length) break;
    await sleep(500);
  }
  const sorted = latencies.sort((a, b) => a - b);
  return {
    orders: ids.length,
    completed: sorted.length,
    notificationsPerSecond: round((ids.length / Math.max(1, sent - measuredFrom)) * 1000),
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? NaN),
    timedOut: sorted.length < ids.length,
  };
}
