/**
 * The treasury's Solana reader (src/adapters/chain/solana-treasury.ts) against a JSON-RPC stub
 * answering Solana's documented shapes: SOL from getBalance, each token from the treasury's
 * associated token account among getTokenAccountsByOwner's jsonParsed answer (another account of
 * the same mint does not count), a missing account is 0, and a node that fails is
 * ChainUnavailableError naming the method, never the URL.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolanaTreasuryReader } from '../../src/adapters/chain/solana-treasury.ts';
import { ChainUnavailableError } from '../../src/adapters/chain/transactions-port.ts';

const TREASURY = address('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin');
const USDC_MINT = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
const EURC_MINT = address('HzwqbKZw8HxMN6bF2yFZNrht3c2iXXzpKcFu7uBEDKtr');
const OTHER_ACCOUNT = address('4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T');

const tokenAccount = (pubkey: string, amount: string) => ({
  pubkey,
  account: {
    data: { parsed: { info: { isNative: false, mint: USDC_MINT, owner: TREASURY, state: 'initialized', tokenAmount: { amount, decimals: 6, uiAmount: Number(amount) / 1e6, uiAmountString: String(Number(amount) / 1e6) } }, type: 'account' }, program: 'spl-token', space: 165 },
    executable: false,
    lamports: 2039280,
    owner: TOKEN_PROGRAM_ADDRESS,
    rentEpoch: 0,
    space: 165,
  },
});

let server: Server;
let url: string;
let failing = false;
const calls: Array<{ method: string; params: unknown[] }> = [];

beforeAll(async () => {
  const [ata] = await findAssociatedTokenPda({ owner: TREASURY, mint: USDC_MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (failing) {
        response.statusCode = 503;
        return response.end('busy');
      }
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      calls.push({ method, params });
      const context = { slot: 42 };
      let result: unknown;
      if (method === 'getBalance') result = { context, value: 1_500_000_001 };
      else if (method === 'getTokenAccountsByOwner') {
        const { mint } = params[1] as { mint: string };
        // USDC: the treasury's ATA and another account of the same mint; EURC: none yet.
        result = { context, value: mint === USDC_MINT ? [tokenAccount(OTHER_ACCOUNT, '999000000'), tokenAccount(ata, '1234500001')] : [] };
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/?api-key=secret-key-in-url`;
});
afterAll(() => server.close());

describe('the Solana treasury reader', () => {
  it('reads SOL and each token from its associated account; a missing one is 0', async () => {
    const reader = createSolanaTreasuryReader({ url, commitment: 'confirmed', addresses: [TREASURY], mints: { USDC: USDC_MINT, EURC: EURC_MINT } });
    expect(reader).toMatchObject({ kind: 'solana-rpc', onChain: true, address: TREASURY, currencies: ['SOL', 'USDC', 'EURC'] });
    const balances = await reader.readBalances();
    expect(Object.fromEntries(balances.get(1)!)).toEqual({ SOL: '1.500000001', USDC: '1234.500001', EURC: '0' });
    const byOwner = calls.find((call) => call.method === 'getTokenAccountsByOwner')!;
    expect(byOwner.params[0]).toBe(TREASURY);
    expect(byOwner.params[2]).toMatchObject({ encoding: 'jsonParsed', commitment: 'confirmed' });
  });

  it('a node that fails is ChainUnavailableError naming the method, never the URL', async () => {
    failing = true;
    try {
      const reader = createSolanaTreasuryReader({ url, addresses: [TREASURY], mints: { USDC: USDC_MINT } });
      const error = await reader.readBalances().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(ChainUnavailableError);
      expect((error as Error).message).toMatch(/^Solana RPC (getBalance|getTokenAccountsByOwner) failed/);
      expect((error as Error).message).not.toMatch(/127\.0\.0\.1|secret-key-in-url/);
    } finally {
      failing = false;
    }
  });
});
