/**
 * One webhook POST. node:http(s) rather than fetch so that the connection goes to an address the
 * URL policy has just approved: the host is resolved once, every address is checked, and the
 * socket's lookup returns exactly those addresses (no second resolution a DNS rebinding could
 * change). Redirects are never followed (a 3xx is a failed attempt); one deadline covers the whole
 * exchange; only the first KiB of the answer is read and kept.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type ResolvedAddress, type Resolver, type UrlPolicy, checkWebhookUrl, systemResolver } from './url-policy.ts';

export const RESPONSE_BODY_LIMIT = 1024;

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
}

export type Sender = (request: SendRequest) => Promise<SendResult>;

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

export function createHttpSender(options: { policy: UrlPolicy; resolve?: Resolver }): Sender {
  const resolve = options.resolve ?? systemResolver;
  return async (request) => {
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
    const transport = target.url.protocol === 'https:' ? https : http;

    return new Promise<SendResult>((resolvePromise) => {
      let settled = false;
      const settle = (result: SendResult) => {
        if (settled) return;
        settled = true;
        resolvePromise(result);
      };
      const req = transport.request(
        target.url,
        {
          method: 'POST',
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          lookup: pinnedLookup(target.addresses),
          agent: false,
          signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () => {
            const statusCode = res.statusCode ?? 0;
            const responseBody = clean(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8'));
            const ok = statusCode >= 200 && statusCode < 300;
            const error = ok
              ? null
              : statusCode >= 300 && statusCode < 400
                ? `HTTP ${statusCode}: redirects are not followed`
                : `HTTP ${statusCode}`;
            settle({ ok, statusCode, latencyMs: elapsed(), error, responseBody, aborted: false });
            res.destroy();
          };
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size >= RESPONSE_BODY_LIMIT) finish();
          });
          res.on('end', finish);
          res.on('error', () => finish());
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (request.signal?.aborted) return settle(failure('worker stopped', { aborted: true }));
        if (timeout.aborted) return settle(failure(`timeout after ${request.timeoutMs} ms`));
        settle(failure(clean(err.code ? `${err.code}: ${err.message}` : err.message).slice(0, 500)));
      });
      req.end(request.body);
    });
  };
}
