/**
 * One webhook POST, over keep-alive connection pools (undici), one pool per origin and set of
 * approved addresses. The connection still goes only to an address the URL policy has just
 * approved: every attempt resolves the host and checks every address, and the pool's socket
 * lookup answers with exactly those addresses (no second resolution a DNS rebinding could change).
 * When the approved addresses change, a new pool is used; the old one closes once idle. Redirects
 * are never followed (a 3xx is a failed attempt); each attempt has its own deadline covering the
 * whole exchange; only the first KiB of the answer is kept (the rest is read and dropped, up to a
 * bound, so the connection can be reused).
 */
import type { LookupFunction } from 'node:net';
import { Pool } from 'undici';
import { type ResolvedAddress, type Resolver, type UrlPolicy, checkWebhookUrl, systemResolver } from './url-policy.ts';

export const RESPONSE_BODY_LIMIT = 1024;
/** Past this much answer the connection is dropped rather than drained. */
const DRAIN_LIMIT = 64 * 1024;
/** A pool unused for this long is closed. */
const POOL_IDLE_MS = 60_000;
const KEEP_ALIVE_MS = 4_000;

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborts the attempt when the worker stops; the outcome is then `aborted`. */
  signal?: AbortSignal;
}

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  /** True when the worker's own signal stopped the attempt (not a receiver failure). */
  aborted: boolean;
  /** True when the attempt ran out of time (the receiver did not answer within the deadline). */
  timedOut?: boolean;
  /** The receiver's Retry-After header, if any. */
  retryAfter?: string | null;
}

export type Sender = ((request: SendRequest) => Promise<SendResult>) & { close?: () => Promise<void> };

/** A socket lookup that answers with the already-approved addresses only. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      callback(null, addresses.map(({ address, family }) => ({ address, family })));
    } else {
      const preferred = addresses.find((entry) => !options.family || entry.family === options.family) ?? addresses[0]!;
      callback(null, preferred.address, preferred.family);
    }
  };
}

/** PostgreSQL text cannot hold NUL characters. */
const clean = (text: string) => text.replaceAll('\u0000', '');

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

export interface HttpSenderOptions {
  policy: UrlPolicy;
  resolve?: Resolver;
  /** Connections per pool (an endpoint never has more attempts in flight than its cap). */
  connectionsPerOrigin?: number;
}

export function createHttpSender(options: HttpSenderOptions): Sender {
  const resolve = options.resolve ?? systemResolver;
  const pools = new Map<string, { pool: Pool; usedAt: number }>();

  function poolFor(url: URL, addresses: ResolvedAddress[]): Pool {
    const key = `${url.origin} ${addresses.map((entry) => entry.address).join(',')}`;
    const now = Date.now();
    let entry = pools.get(key);
    if (!entry) {
      entry = {
        pool: new Pool(url.origin, {
          connect: { lookup: pinnedLookup(addresses) },
          connections: options.connectionsPerOrigin ?? 64,
          pipelining: 1,
          keepAliveTimeout: KEEP_ALIVE_MS,
          keepAliveMaxTimeout: KEEP_ALIVE_MS,
        }),
        usedAt: now,
      };
      pools.set(key, entry);
      sweepIdle(now);
    }
    entry.usedAt = now;
    return entry.pool;
  }

  function sweepIdle(now: number) {
    for (const [key, entry] of pools) {
      if (now - entry.usedAt > POOL_IDLE_MS) {
        pools.delete(key);
        void entry.pool.close().catch(() => {});
      }
    }
  }

  const send: Sender = async (request) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failure = (error: string, extra: Partial<SendResult> = {}): SendResult => ({
      ok: false,
      statusCode: null,
      latencyMs: elapsed(),
      error,
      responseBody: null,
      aborted: false,
      ...extra,
    });

    const target = await checkWebhookUrl(request.url, options.policy, resolve);
    if (!target.ok) return failure(`target refused: URL ${target.reason}`);

    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    try {
      const response = await poolFor(target.url, target.addresses).request({
        path: `${target.url.pathname}${target.url.search}`,
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        body: request.body,
        signal,
        // The signal is the deadline; undici's own (5 minutes) would only be longer.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
        if (size > DRAIN_LIMIT) {
          response.body.destroy();
          break;
        }
      }
      const statusCode = response.statusCode;
      const ok = statusCode >= 200 && statusCode < 300;
      const error = ok ? null : statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode}: redirects are not followed` : `HTTP ${statusCode}`;
      return {
        ok,
        statusCode,
        latencyMs: elapsed(),
        error,
        responseBody: clean(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8')),
        aborted: false,
        retryAfter: headerText(response.headers['retry-after']),
      };
    } catch (err) {
      if (request.signal?.aborted) return failure('worker stopped', { aborted: true });
      if (timeout.aborted) return failure(`timeout after ${request.timeoutMs} ms`, { timedOut: true });
      const error = err as NodeJS.ErrnoException;
      return failure(clean(error.code ? `${error.code}: ${error.message}` : error.message).slice(0, 500));
    }
  };
  send.close = async () => {
    const all = [...pools.values()];
    pools.clear();
    await Promise.all(all.map((entry) => entry.pool.destroy().catch(() => {})));
  };
  return send;
}
