/**
 * The local price source, over https as production demands (PRICE_URL must be https://):
 * `GET /v1/prices` answers the document src/adapters/prices/http.ts reads,
 * `{"rates": {"USDC": "5.40"}, "timestamp": "<now>"}`, with a fresh timestamp each time so the
 * service's PRICE_MAX_AGE_MS is met as a live feed would meet it. `PUT /v1/prices` with
 * `{"USDC": "5.55"}` changes the rate, to watch quotes follow it.
 */
import { createServer } from 'node:https';
import type { LocalTls } from './certificates.ts';
import { listenOnLoopback } from './listen.ts';

export interface PriceSource {
  url: string;
  close(): Promise<void>;
}

const RATE = /^\d{1,15}(\.\d{1,18})?$/;

export async function startPriceSource(tls: LocalTls, port: number, usdcBrl: string): Promise<PriceSource> {
  const rates: Record<string, string> = { USDC: usdcBrl };
  const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (request, response) => {
    const answer = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    if (request.url !== '/v1/prices') return answer(404, { error: 'GET or PUT /v1/prices' });
    if (request.method === 'GET') return answer(200, { rates, timestamp: new Date().toISOString() });
    if (request.method !== 'PUT') return answer(405, { error: 'GET or PUT /v1/prices' });
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8').slice(0, 4096)));
    request.on('end', () => {
      try {
        const next = JSON.parse(body) as Record<string, unknown>;
        if (!Object.values(next).every((rate) => typeof rate === 'string' && RATE.test(rate))) return answer(400, { error: 'rates are decimal strings, e.g. {"USDC": "5.55"}' });
        Object.assign(rates, next);
        answer(200, { rates });
      } catch {
        answer(400, { error: 'the body is not JSON' });
      }
    });
  });
  const actual = await listenOnLoopback(server, port, 'the price source');
  return {
    url: `https://localhost:${actual}/v1/prices`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}
