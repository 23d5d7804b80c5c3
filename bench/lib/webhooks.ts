/**
 * Webhook fan-out: a local receiver (node:http, in the runner process) registered as an endpoint
 * for receiver.kyc_approved, then N sandbox KYC approvals. Measures deliveries per second and the
 * time from the state change (the payload's `timestamp`) to receipt.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cnpjCheckDigits } from '../../src/lib/br-documents.ts';
import type { Api } from './api.ts';
import { pool, round } from './load.ts';
import { sampleRss } from './process.ts';

export interface WebhookFigures {
  events: number;
  delivered: number;
  duplicates: number;
  nonJson: number;
  deliveriesPerSecond: number;
  approvalsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  timedOut: boolean;
  peakRssMb: number;
  wallSeconds: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);

/** A valid CNPJ per index, distinct across the run. */
export function benchCnpj(index: number): string {
  const base = String(10_000_000 + index).padStart(8, '0') + '0001';
  return base + cnpjCheckDigits(base);
}

export async function webhookFanOut(api: Api, options: { events: number; concurrency: number; waitSeconds: number; pid: number; documentOffset: number; log: (m: string) => void }): Promise<WebhookFigures> {
  const { events, concurrency } = options;
  // Receivers to approve later: creating them emits no event.
  options.log(`webhooks: creating ${events} receivers`);
  const receiverIds = await pool(events, concurrency, 300_000, async (i) => {
    const receiver = await api.post<{ id: string }>('/api/v1/receivers', {
      type: 'PJ',
      document: benchCnpj(options.documentOffset + i),
      name: `Webhook Receiver ${i}`,
      email: `wh${i}@bench.example`,
    });
    return receiver.id;
  });

  const seen = new Set<string>();
  const latencies: number[] = [];
  let duplicates = 0;
  let nonJson = 0;
  let firstReceipt = 0;
  let lastReceipt = 0;
  let resolveAll: () => void = () => {};
  const all = new Promise<void>((resolve) => (resolveAll = resolve));
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const receivedAt = Date.now();
      response.writeHead(204).end();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { deliveryId?: string; timestamp?: string; event?: string };
        const id = String(request.headers['webhook-id'] ?? body.deliveryId);
        if (seen.has(id)) {
          duplicates++;
          return;
        }
        seen.add(id);
        if (body.event !== 'receiver.kyc_approved') return;
        latencies.push(receivedAt - Date.parse(String(body.timestamp)));
        if (firstReceipt === 0) firstReceipt = receivedAt;
        lastReceipt = receivedAt;
        if (latencies.length >= events) resolveAll();
      } catch {
        nonJson++;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  try {
    await api.post('/api/v1/webhook/endpoints', { url, eventTypes: ['receiver.kyc_approved'] });
    options.log(`webhooks: endpoint ${url} registered; approving ${events} receivers`);
    const rss = sampleRss(options.pid);
    const started = Date.now();
    await pool(events, concurrency, 300_000, (i) => api.post(`/api/v1/sandbox/receivers/${receiverIds[i]}/kyc`, { decision: 'APPROVE' }));
    const approvalsDone = Date.now();
    const timer = setTimeout(resolveAll, options.waitSeconds * 1000);
    await all;
    clearTimeout(timer);
    const peakRssMb = rss.stop();
    const sorted = [...latencies].sort((a, b) => a - b);
    const windowMs = Math.max(1, (lastReceipt || Date.now()) - started);
    return {
      events,
      delivered: latencies.length,
      duplicates,
      nonJson,
      deliveriesPerSecond: round((latencies.length / windowMs) * 1000),
      approvalsPerSecond: round((events / Math.max(1, approvalsDone - started)) * 1000),
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.at(-1) ?? NaN,
      timedOut: latencies.length < events,
      peakRssMb: round(peakRssMb),
      wallSeconds: round(windowMs / 1000),
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
