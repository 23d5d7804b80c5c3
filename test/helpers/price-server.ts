/**
 * A price source on loopback (node:http) for the HTTP price adapter's tests: it answers what the
 * test set, counts the requests, and can go down and come back on the same port.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PriceServer {
  url: string;
  /** Requests answered so far. */
  requests: number;
  /** Starts it again (on the same port) after down(); a no-op while it is up. */
  up(): Promise<void>;
  /** The next answers: a status and a body (an object is sent as JSON, a string as is). */
  answer(body: unknown, status?: number): void;
  /** Holds every answer this long (a slow source). */
  delayMs: number;
  down(): Promise<void>;
  close(): Promise<void>;
}

export async function startPriceServer(): Promise<PriceServer> {
  let body: unknown = { rates: { USDC: '5.40' } };
  let status = 200;
  let server: Server | undefined;
  let port = 0;
  const state = {
    url: '',
    requests: 0,
    delayMs: 0,
    answer(next: unknown, nextStatus = 200) {
      body = next;
      status = nextStatus;
    },
    async up() {
      if (server) return;
      server = createServer((request, response) => {
        state.requests += 1;
        setTimeout(() => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(typeof body === 'string' ? body : JSON.stringify(body));
        }, state.delayMs);
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      state.url = `http://127.0.0.1:${port}/v1/prices`;
    },
    async down() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    close: () => state.down(),
  };
  await state.up();
  return state;
}
