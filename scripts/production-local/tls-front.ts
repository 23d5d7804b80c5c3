/**
 * The TLS front: what a load balancer or ingress is in a deployment. It terminates https with the
 * local CA's certificate and passes each request to the api processes in turn (round robin, the
 * next one tried when one refuses the connection), adding X-Forwarded-For and X-Forwarded-Proto,
 * which the service believes from this address alone (TRUST_PROXY=127.0.0.1). The PSP's callbacks
 * (PIX_WEBHOOK_PUBLIC_URL, https:// in production) and every API call of the walkthrough come in
 * here. In a deployment the edge also requires the PSP's client certificate on
 * /api/v1/pix-provider/ (README, "Callback authentication"); the PSP simulator presents none.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { LocalTls } from './certificates.ts';
import { listenOnLoopback } from './listen.ts';

export interface TlsFront {
  url: string;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) are the connection's, not the request's. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function forwardedHeaders(request: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  // Our peer only: whatever X-Forwarded-For a client wrote is dropped, so it cannot choose the address rate limits count.
  headers['x-forwarded-for'] = request.socket.remoteAddress ?? '';
  headers['x-forwarded-proto'] = 'https';
  headers['x-forwarded-host'] = request.headers.host ?? '';
  return headers;
}

export async function startTlsFront(tls: LocalTls, port: number, upstreamPorts: number[]): Promise<TlsFront> {
  let next = 0;

  function pass(request: IncomingMessage, response: ServerResponse, body: Buffer, attemptsLeft: number) {
    const upstreamPort = upstreamPorts[next++ % upstreamPorts.length]!;
    const upstream = httpRequest({ host: '127.0.0.1', port: upstreamPort, method: request.method, path: request.url, headers: forwardedHeaders(request) }, (answer) => {
      const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      response.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(response);
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' && attemptsLeft > 1) return pass(request, response, body, attemptsLeft - 1);
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'BAD_GATEWAY', message: `no api process answered (${err.code ?? err.message})` }));
      else response.destroy();
    });
    upstream.end(body);
  }

  const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (request, response) => {
    // Bodies are small JSON (BODY_LIMIT_BYTES): read whole, so a refused connection can be retried on the next process.
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => pass(request, response, Buffer.concat(chunks), upstreamPorts.length));
  });
  const actual = await listenOnLoopback(server, port, 'the TLS front');
  return {
    url: `https://localhost:${actual}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}
