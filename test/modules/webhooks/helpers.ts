/**
 * Test helpers for webhooks: a real HTTP receiver on 127.0.0.1 (port 0) that records every
 * request and answers from a script, a controllable clock, Standard Webhooks verification, and
 * the webhook API bound to a test file's context (webhooksFixture).
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { Clock } from '../../../src/lib/clock.ts';
import type { TestContext, TestMerchant } from '../../helpers/app.ts';
import { type Json, callAs, createReceiver, createWebhookEndpoint, decideReceiverKyc } from '../../helpers/factories.ts';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Status codes to answer, in order (0: never answer); 200 once the list is used up. */
  respondWith(...statuses: number[]): void;
  /** Resolves when at least `count` requests have arrived (polling, up to timeoutMs). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let script: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = script.shift() ?? 200;
      if (status === 0) return;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'ok' : `failure ${status}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    respondWith: (...statuses) => {
      script = statuses;
    },
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${requests.length} of ${count} requests within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return requests;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export interface TestClock extends Clock {
  advance(ms: number): void;
}

/** Real time plus an offset that only grows when told to (rows written by the API stay due). */
export function testClock(): TestClock {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms) => void (offset += ms) };
}

const headerText = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));

/**
 * Verifies a received request with the `standardwebhooks` package, as a merchant would; returns
 * the parsed payload or throws. `at`: the wall-clock time to verify at (for tests that move the
 * service's clock, so the 5-minute timestamp tolerance is judged against that time).
 */
export function verify(secret: string, request: Pick<ReceivedRequest, 'headers' | 'body'>, at?: Date): Record<string, unknown> {
  if (!at) return new Webhook(secret).verify(request.body, headerText(request.headers)) as Record<string, unknown>;
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  try {
    return new Webhook(secret).verify(request.body, headerText(request.headers)) as Record<string, unknown>;
  } finally {
    vi.useRealTimers();
  }
}

/** The ten event names of the spec's Events section, in its order. */
export const SPEC_EVENTS = [
  'order.payment_received',
  'order.deposit_received',
  'order.processing',
  'order.pix_sending',
  'order.completed',
  'order.failed',
  'order.refunding',
  'order.refunded',
  'receiver.kyc_approved',
  'receiver.kyc_rejected',
];

/** The catalog's extensions of the spec's events: MED claims (docs/architecture/disputes.md). */
export const EXTENSION_EVENTS = ['order.disputed', 'dispute.updated', 'dispute.resolved', 'order.created'];

/**
 * The webhook API over a file's context: calls as a merchant, endpoints and receiver events
 * from the factories, delivery passes run by hand, the delivery log, and loopback receivers
 * closed by `closeReceivers()` in afterAll.
 */
export function webhooksFixture(getCtx: () => TestContext) {
  const receivers: Receiver[] = [];

  const newReceiver = async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    return receiver;
  };
  const closeReceivers = () => Promise.all(receivers.map((receiver) => receiver.close()));

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: TestMerchant, payload?: unknown) => callAs(getCtx(), who, method, url, payload);

  const createEndpoint = (who: TestMerchant, body: Record<string, unknown>) => createWebhookEndpoint(getCtx(), who, body);

  /** A receiver (end customer) of the merchant, with its KYC decided in sandbox: emits receiver.kyc_*. */
  const decideKyc = async (who: TestMerchant, decision: 'APPROVE' | 'REJECT') => {
    const created = await createReceiver(getCtx(), who);
    await decideReceiverKyc(getCtx(), who, created.id, decision);
    return created.id as string;
  };

  const pass = () => getCtx().app.services.webhooks.runDeliveryPass();
  const deliveries = async (who: TestMerchant, query = '') => {
    const response = await call('GET', `/webhook/deliveries${query}`, who);
    if (response.statusCode !== 200) throw new Error(response.body);
    return response.json() as { data: Json[]; total: number; page: number; limit: number };
  };

  return { newReceiver, closeReceivers, call, createEndpoint, decideKyc, pass, deliveries };
}
