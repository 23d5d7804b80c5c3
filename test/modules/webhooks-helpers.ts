/**
 * Test helpers for webhooks: a real HTTP receiver on 127.0.0.1 (port 0) that records every
 * request and answers from a script, a controllable clock, and Standard Webhooks verification.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { Clock } from '../../src/lib/clock.ts';

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
