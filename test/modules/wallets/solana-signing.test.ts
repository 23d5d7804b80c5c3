/**
 * docs/solana-signing.md's worked example, run as written: the doc must contain
 * solana-signing.example.ts verbatim, and that code runs against the service over HTTP with the
 * sandbox chain behind a JSON-RPC node (getLatestBlockhash, getSignatureStatuses), as a client's
 * node would answer.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';
import { sendMemo } from './solana-signing.example.ts';

const EXAMPLE = path.join(import.meta.dirname, 'solana-signing.example.ts');
const DOC = path.join(import.meta.dirname, '../../../docs/solana-signing.md');

describe('docs/solana-signing.md: the worked example', () => {
  let f: WalletsFixture;
  let node: Server;
  let rpcUrl: string;
  let apiUrl: string;

  beforeAll(async () => {
    f = await createWalletsFixture();
    const chain = f.ctx.app.services.wallets.chain;
    node = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        void (async () => {
          const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
          const context = { slot: 1 };
          let result: unknown;
          if (method === 'getLatestBlockhash') {
            const latest = await chain.getLatestBlockhash();
            result = { context, value: { blockhash: latest.blockhash, lastValidBlockHeight: Number(latest.lastValidBlockHeight) } };
          } else if (method === 'getSignatureStatuses') {
            const statuses = await chain.getSignatureStatuses(params[0] as string[]);
            result = { context, value: statuses.map((s) => (s ? { slot: 1, confirmations: null, err: s.error ?? null, confirmationStatus: 'finalized' } : null)) };
          }
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify(result === undefined ? { jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } } : { jsonrpc: '2.0', id, result }));
        })();
      });
    });
    node.listen(0, '127.0.0.1');
    await once(node, 'listening');
    rpcUrl = `http://127.0.0.1:${(node.address() as { port: number }).port}`;
    apiUrl = `${await f.ctx.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1`;
  });
  afterAll(async () => {
    node.close();
    await f.ctx.close();
  });

  it('the doc shows the example file verbatim', async () => {
    const [doc, example] = await Promise.all([readFile(DOC, 'utf8'), readFile(EXAMPLE, 'utf8')]);
    expect(doc).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it('builds with @solana/kit, signs and sends through the API, and confirms: the memo is on chain, the sponsor paid exactly the fee', async () => {
    const sponsorBefore = await f.balance(f.sponsor);
    const walletBefore = await f.balance(f.receiver.walletAddress);
    const hash = await sendMemo({ apiUrl, headers: f.merchant.headers, rpcUrl, receiverId: f.receiver.id, walletAddress: f.receiver.walletAddress, memo: 'order 42 settled' });
    expect((await f.call('GET', `/sandbox/wallet/transactions/${hash}`)).json()).toMatchObject({ signature: hash, status: 'FINALIZED' });
    expect(sponsorBefore - (await f.balance(f.sponsor))).toBe(10_000n);
    expect(await f.balance(f.receiver.walletAddress)).toBe(walletBefore);
  });

  it("a refusal reaches the example's caller with its code (a receiver whose KYC is PENDING)", async () => {
    const pending = await f.createReceiver({ createManagedWallet: true });
    await expect(sendMemo({ apiUrl, headers: f.merchant.headers, rpcUrl, receiverId: pending.id, walletAddress: pending.walletAddress, memo: 'refused' })).rejects.toThrow(
      /422 .*KYC_NOT_APPROVED/,
    );
  });
});
