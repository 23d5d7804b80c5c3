/**
 * The Solana JSON-RPC client every chain adapter uses: @solana/kit's RPC (its methods, types and
 * response transformers) over a transport of our own. Kit's default transport costs a busy
 * worker more than the calls themselves (measured in bench/reports/2026-12-07-rpc-transport.md):
 * `fetch` (undici and its web streams), and a JSON reader that wraps every integer by walking the
 * response one character at a time into an array. This one does the same work with node:http on
 * kept-alive connections and JSON.parse reading each integer's source text (exact at any size).
 *
 * What it keeps of kit's: every integer of a response is a bigint (kit's transformers narrow the
 * ones its API types as numbers), bigints in a request are written as JSON integers, a response
 * that is not 2xx is SolanaError HTTP_ERROR, the caller's AbortSignal cancels the request, and
 * br/gzip/deflate bodies are accepted. Left out: coalescing identical calls of one tick.
 */
import http from 'node:http';
import https from 'node:https';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { createSolanaRpcFromTransport, type RpcTransport, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, SolanaError } from '@solana/kit';

/** An integer as JSON writes it (an optional positive exponent included); fractions stay numbers. */
const INTEGER_SOURCE = /^-?\d+(?:[eE]\+?\d+)?$/;

/** Kit's bound: an integer of more digits is refused, not computed (`1e999999999` would take the process). */
const MAX_INTEGER_DIGITS = 1000;

/** JSON with every integer a bigint, as kit's parseJsonWithBigInts answers it. */
export function parseJsonWithBigInts(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    if (typeof value !== 'number' || context?.source === undefined || !INTEGER_SOURCE.test(context.source)) return value;
    const [mantissa, exponent] = context.source.split(/[eE]\+?/) as [string, string | undefined];
    const digits = mantissa.replace('-', '').length + Number(exponent ?? 0);
    if (digits > MAX_INTEGER_DIGITS) throw new Error(`the node answered an integer of ${digits} digits`);
    return exponent === undefined ? BigInt(mantissa) : BigInt(mantissa) * 10n ** BigInt(exponent);
  });
}

/** Node 22+'s JSON.rawJSON (TypeScript's libraries do not declare it yet): a value written as the text given. */
const rawJson = (JSON as unknown as { rawJSON: (text: string) => unknown }).rawJSON;

/** JSON with every bigint written as an integer (never a string, never rounded). */
export function stringifyJsonWithBigInts(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? rawJson(v.toString()) : v));
}

const decoders: Record<string, (body: Buffer) => Promise<Buffer>> = {
  br: promisify(zlib.brotliDecompress),
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
};

/**
 * A failure to reach the node, without the address node:http puts in its message (the URL may
 * carry an API key, and callers' messages name the method only); an abort stays an AbortError.
 */
function unreachable(err: Error & { code?: string }): Error {
  return err.name === 'AbortError' ? err : new Error(`the node could not be reached (${err.code ?? err.name})`);
}

function post(url: URL, agent: http.Agent, body: string, signal: AbortSignal | undefined): Promise<unknown> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        signal,
        headers: { accept: 'application/json', 'accept-encoding': 'br, gzip, deflate', 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (err) => reject(unreachable(err)));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 299) {
            const headers = new Headers(Object.entries(res.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])));
            reject(new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, { headers, message: res.statusMessage ?? '', statusCode: status }));
            return;
          }
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding']?.trim().toLowerCase();
          const decoded = encoding && encoding !== 'identity' ? decoders[encoding]?.(raw) : Promise.resolve(raw);
          if (!decoded) {
            reject(new Error(`the node answered in an encoding not asked for: ${encoding}`));
            return;
          }
          decoded.then((bytes) => resolve(parseJsonWithBigInts(bytes.toString('utf8')))).catch(reject);
        });
      },
    );
    req.on('error', (err) => reject(unreachable(err)));
    req.end(body);
  });
}

/** Kit's Solana RPC on `url` (http or https) through the transport above. */
export function createRpcClient(url: string) {
  const target = new URL(url);
  const agent = new (target.protocol === 'https:' ? https.Agent : http.Agent)({ keepAlive: true });
  const transport = (({ payload, signal }) => post(target, agent, stringifyJsonWithBigInts(payload), signal)) as RpcTransport;
  return createSolanaRpcFromTransport(transport);
}
