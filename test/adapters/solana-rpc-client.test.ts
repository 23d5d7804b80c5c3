/**
 * The Solana RPC client's transport (adapters/chain/solana-rpc-client.ts): it reads JSON as kit's
 * own reader does (every integer a bigint, fractions numbers; a property test against kit's), writes
 * bigints as JSON integers, refuses a non-2xx answer as kit's HTTP error, reads a compressed body,
 * gives up when the caller's signal aborts, and never names the node's address in an error.
 * Against a local HTTP server standing in for a node.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { isSolanaError, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR } from '@solana/kit';
import { parseJsonWithBigInts as kitParse } from '@solana/rpc-spec-types';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRpcClient, parseJsonWithBigInts, stringifyJsonWithBigInts } from '../../src/adapters/chain/solana-rpc-client.ts';

/** JSON texts with integers beyond 2^53, exponents and fractions among ordinary values. */
const jsonText = fc.oneof(
  fc.json(),
  fc
    .array(fc.oneof(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String), fc.constantFrom('1e3', '2E+4', '-5e2', '1e-3', '0.5', '-0', '1.5e3', '"12"', '"a\\"1"')), { maxLength: 8 })
    .map((items) => `{"a":[${items.join(',')}],"b":{"c":${items[0] ?? 0}}}`),
);

describe('the JSON reader', () => {
  it('answers what kit reads, for any JSON text', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(parseJsonWithBigInts(text)).toEqual(kitParse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('reads integers past 2^53 exactly, and refuses one of over 1,000 digits rather than compute it', () => {
    expect(parseJsonWithBigInts('{"lamports":18446744073709551615,"fee":0.25}')).toEqual({ lamports: 18446744073709551615n, fee: 0.25 });
    expect(() => parseJsonWithBigInts('[1e999999999]')).toThrow(/digits/);
  });

  it('writes bigints as JSON integers', () => {
    expect(stringifyJsonWithBigInts({ params: [18446744073709551615n, 'x', 1] })).toBe('{"params":[18446744073709551615,"x",1]}');
  });
});

describe('the transport, against a local server', () => {
  let server: http.Server;
  let url: string;
  const received: string[] = [];
  let answer: (res: http.ServerResponse, id: unknown) => void = () => {};

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(body);
        answer(res, (JSON.parse(body) as { id: unknown }).id);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends bigints as integers and answers integers as bigints, over one kept-alive connection', async () => {
    const sockets = new Set<unknown>();
    answer = (res, id) => {
      sockets.add(res.socket);
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: [5, 6] }));
    };
    const rpc = createRpcClient(url);
    expect(await rpc.getBlocks(5n, 9007199254740991n).send()).toEqual([5n, 6n]);
    expect(await rpc.getBlocks(5n, 6n).send()).toEqual([5n, 6n]);
    expect(received.at(-2)).toContain('"params":[5,9007199254740991,');
    expect(sockets.size).toBe(1);
  });

  it('reads a gzip-compressed answer', async () => {
    answer = (res, id) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(zlib.gzipSync(JSON.stringify({ jsonrpc: '2.0', id, result: 77 })));
    };
    expect(await createRpcClient(url).getSlot().send()).toBe(77n);
  });

  it("refuses an answer that is not 2xx as kit's HTTP error, with its status", async () => {
    answer = (res) => {
      res.statusCode = 503;
      res.end('busy');
    };
    const error: unknown = await createRpcClient(url).getSlot().send().catch((err: unknown) => err);
    expect(isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)).toBe(true);
    expect((error as Error).message).toContain('503');
  });

  it('names a node it cannot reach by the error code, never by its address (a URL may carry an API key)', async () => {
    const error: unknown = await createRpcClient('http://127.0.0.1:1/secret-key').getSlot().send().catch((err: unknown) => err);
    expect((error as Error).message).toBe('the node could not be reached (ECONNREFUSED)');
  });

  it("gives up when the caller's signal aborts", async () => {
    answer = () => {};
    await expect(createRpcClient(url).getSlot().send({ abortSignal: AbortSignal.timeout(50) })).rejects.toThrow(/abort/i);
  });
});
