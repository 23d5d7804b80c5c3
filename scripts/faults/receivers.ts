/**
 * The merchants' webhook receivers.
 *
 * `FlakyReceiver` is merchant A's: it verifies each delivery with `standardwebhooks` under the
 * endpoint's secret, as a merchant would, and records it (webhook-id, orderId, event, time). It
 * can be taken down (the port closed: connection refused) and brought up again on the same port.
 * `HangingReceiver` is merchant B's: it accepts each request and never answers, so every attempt
 * to it runs into the worker's timeout; it only counts what reached it.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  webhookId: string;
  orderId?: string;
  event: string;
  at: number;
}

export class FlakyReceiver {
  readonly received: Received[] = [];
  /** Requests that failed verification or named another deliveryId than their webhook-id. */
  readonly invalid: string[] = [];
  private server?: http.Server;
  private port = 0;
  private webhook?: Webhook;

  set secret(secret: string) {
    this.webhook = new Webhook(secret);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  private handle = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
      try {
        if (!this.webhook) throw new Error('no secret yet');
        const payload = this.webhook.verify(body, headers) as Record<string, unknown>;
        if (payload.deliveryId !== headers['webhook-id']) throw new Error(`deliveryId ${String(payload.deliveryId)} under webhook-id ${headers['webhook-id']}`);
        this.received.push({ webhookId: headers['webhook-id']!, orderId: payload.orderId as string | undefined, event: String(payload.event), at: Date.now() });
        response.writeHead(204).end();
      } catch (err) {
        this.invalid.push((err as Error).message);
        response.writeHead(400).end();
      }
    });
  };

  async up(): Promise<void> {
    const server = http.createServer(this.handle);
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port and every connection: attempts meet "connection refused" until `up()`. */
  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = once(server, 'close');
    server.close();
    server.closeAllConnections();
    await closed;
  }
}

export class HangingReceiver {
  requests = 0;
  private readonly server = http.createServer(() => {
    this.requests++; // and never answer
  });

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async start(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
  }

  async stop(): Promise<void> {
    const closed = once(this.server, 'close');
    this.server.close();
    this.server.closeAllConnections();
    await closed;
  }
}
