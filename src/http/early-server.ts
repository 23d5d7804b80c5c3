/**
 * The HTTP server main.ts binds before it opens the database: a port in use is found at once,
 * not after migrations and demo seeding. Until the app takes it over (Fastify's serverFactory),
 * every request is answered 503 SERVICE_UNAVAILABLE with `Retry-After: 1` and the Error object.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { ALWAYS } from './security-headers.ts';

/** Slow clients must not hold sockets forever (Fastify sets these on servers it creates itself). */
export const SERVER_TIMEOUTS = { connectionTimeout: 30_000, requestTimeout: 30_000, keepAliveTimeout: 72_000 } as const;

export interface EarlyServer {
  readonly server: http.Server;
  /** For Fastify's serverFactory: keeps Fastify's handler and lends it the server. */
  lend(handler: http.RequestListener): http.Server;
  /**
   * Requests go to the lent handler from now on. Only once the app is ready: a request reaching
   * Fastify before its hooks are built crashes the process.
   */
  open(): void;
  /** Stops accepting connections, closes idle ones, resolves when the last one has ended. */
  close(): Promise<void>;
}

function answerStarting(_request: http.IncomingMessage, response: http.ServerResponse): void {
  const requestId = randomUUID();
  response.writeHead(503, { ...ALWAYS, 'content-type': 'application/json; charset=utf-8', 'retry-after': '1', 'x-request-id': requestId, connection: 'close' });
  response.end(JSON.stringify({ error: 'SERVICE_UNAVAILABLE', message: 'The service is starting; retry shortly', requestId }));
}

export async function listenEarly(host: string, port: number): Promise<EarlyServer> {
  const server = http.createServer(answerStarting);
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeout;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeout;
  server.setTimeout(SERVER_TIMEOUTS.connectionTimeout);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let appHandler: http.RequestListener | undefined;
  return {
    server,
    lend(handler) {
      appHandler = handler;
      return server;
    },
    open() {
      if (!appHandler) throw new Error('open() before the app was given the server');
      server.off('request', answerStarting);
      server.on('request', appHandler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
