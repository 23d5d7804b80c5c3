/**
 * The HTTP listener: JSON-RPC on POST / (any path but /admin), subscriptions over a websocket
 * upgrade on the same port, `GET /health` as a node answers it, and the admin API under /admin. RPC faults apply here: an HTTP error status instead of an
 * answer, or no answer at all (the request is held until the simulator closes).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { adminRoute } from './admin.ts';
import { takeHttpFault } from './faults.ts';
import { answer, stringify } from './jsonrpc.ts';
import type { Simulator } from './simulator.ts';
import { acceptWebSocket } from './websocket.ts';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, text: string, type = 'application/json', headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': type, ...headers }).end(text);
}

const FAULT_TEXT: Record<number, string> = {
  429: 'Too many requests for a specific RPC call, contact your app developer or support@rpcpool.com.',
  503: 'Service unavailable',
};

export async function listen(simulator: Simulator, options: { port: number; host: string; log: (message: string) => void }) {
  const held = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const text = await readBody(request);
      if (url.pathname.startsWith('/admin/')) {
        let body: Record<string, unknown>;
        try {
          body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          return send(response, 400, JSON.stringify({ error: 'the body is not JSON' }));
        }
        const reply = await adminRoute(simulator, request.method ?? 'GET', url.pathname, body);
        if (!reply) return send(response, 404, JSON.stringify({ error: 'no such admin route' }));
        return send(response, reply.status, stringify(reply.body));
      }
      if (request.method === 'GET' && url.pathname === '/health') return send(response, 200, 'ok', 'text/plain');
      if (request.method !== 'POST') return send(response, 405, JSON.stringify({ error: 'JSON-RPC takes POST' }));
      simulator.countRequest();
      if (simulator.faults.hangUntil > simulator.now()) {
        held.add(response);
        response.once('close', () => held.delete(response));
        return;
      }
      const status = takeHttpFault(simulator.faults, simulator.now());
      if (status !== undefined) return send(response, status, FAULT_TEXT[status] ?? `HTTP ${status}`, 'text/plain', status === 429 ? { 'retry-after': '1' } : {});
      send(response, 200, await answer(text, simulator.methods, options.log));
    })().catch((error: unknown) => {
      options.log(`request failed: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent) send(response, 500, JSON.stringify({ error: 'internal error' }));
    });
  });
  // Subscriptions on the same port (a cluster's nodes use port + 1; clients are given the URL).
  const sockets = new Set<Duplex>();
  // The websocketDownMs fault: connections cut abruptly (no close frame, as a dropped link), new ones refused.
  simulator.onWebsocketsDown(() => {
    for (const socket of sockets) socket.destroy();
  });
  server.on('upgrade', (request, socket, head) => {
    if (simulator.websocketDown()) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\r\n');
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    acceptWebSocket(request, socket, head, { onMessage: simulator.subscriptions.message, onClose: simulator.subscriptions.closed });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}`,
    wsUrl: `ws://${options.host}:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      for (const response of held) response.destroy();
      held.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
