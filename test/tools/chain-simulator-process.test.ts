/**
 * `npm run chain-simulator` as its own process (main.ts): it prints one JSON line with its URL,
 * its clock runs, the admin API makes mints and funds wallets, fault flags apply from the start;
 * and the JSON-RPC envelope (batches, parse errors, unknown methods), which kit never sends
 * malformed, read with plain fetch.
 */
import type { ChildProcess } from 'node:child_process';
import { type Address, generateKeyPairSigner, isSolanaError, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Rpc, simulatorRpc } from '../helpers/chain-simulator.ts';
import { freePort, runTs } from '../helpers/processes.ts';

interface Ready {
  ready: true;
  url: string;
  adminUrl: string;
  usdcMint: string;
}

async function start(args: string[]): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = runTs('tools/chain-simulator/main.ts', ['--port', String(await freePort()), ...args], {});
  let output = '';
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (line && output.includes('\n')) resolve(JSON.parse(line) as Ready);
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`chain-simulator exited ${code}: ${output}`)));
  });
  return { child, ready };
}

const post = async (url: string, body: unknown) => {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('npm run chain-simulator (a child process)', () => {
  let child: ChildProcess;
  let ready: Ready;
  let rpc: Rpc;

  beforeAll(async () => {
    ({ child, ready } = await start(['--slot-ms', '20', '--usdc', '--http-status', '503', '--http-count', '1']));
    rpc = simulatorRpc(ready.url);
  });
  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('prints its URL, applies the fault flags, and its slots advance', async () => {
    expect(ready).toMatchObject({ ready: true, adminUrl: `${ready.url}/admin`, usdcMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' });
    const first = await rpc.getSlot({ commitment: 'processed' }).send().catch((e: unknown) => e);
    expect(isSolanaError(first, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) && first.context.statusCode).toBe(503);
    const slot = await rpc.getSlot({ commitment: 'processed' }).send();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await rpc.getSlot({ commitment: 'processed' }).send()).toBeGreaterThan(slot);
    expect(await rpc.getHealth().send()).toBe('ok');
  });

  it('the admin API makes a mint and funds a wallet; kit reads them', async () => {
    const owner = (await generateKeyPairSigner()).address;
    const mint = await post(`${ready.adminUrl}/mints`, { decimals: 6 });
    expect(mint).toMatchObject({ status: 200, body: { decimals: 6, programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' } });
    const funded = await post(`${ready.adminUrl}/mint-to`, { mint: ready.usdcMint, owner, amount: '2500000' });
    expect(funded).toMatchObject({ status: 200, body: { amount: '2500000' } });
    expect((await rpc.getTokenAccountBalance(funded.body.tokenAccount as Address).send()).value).toMatchObject({ amount: '2500000', uiAmountString: '2.5' });
    expect((await post(`${ready.adminUrl}/airdrop`, { address: owner, lamports: 5_000_000 })).status).toBe(200);
    expect((await rpc.getBalance(owner, { commitment: 'processed' }).send()).value).toBe(5_000_000n);
    expect(await post(`${ready.adminUrl}/mint-to`, { mint: ready.usdcMint, owner, amount: -1 })).toMatchObject({ status: 400 });
    expect(await post(`${ready.adminUrl}/faults`, { dropNxt: 1 })).toMatchObject({ status: 400, body: { error: 'unknown fault settings: dropNxt' } });
    const state = (await (await fetch(`${ready.adminUrl}/state`)).json()) as { slot: number; settings: { slotMs: number } };
    expect(state.settings.slotMs).toBe(20);
  });

  it('answers a batch in order, and the JSON-RPC errors a node answers', async () => {
    const batch = await post(ready.url, [
      { jsonrpc: '2.0', id: 1, method: 'getSlot' },
      { jsonrpc: '2.0', id: 2, method: 'noSuchMethod' },
      { jsonrpc: '2.0', id: 3 },
      { jsonrpc: '2.0', id: 4, method: 'getBalance', params: [42] },
    ]);
    const answers = batch.body as unknown as Array<{ id: number; result?: unknown; error?: { code: number } }>;
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4]);
    expect(typeof answers[0]!.result).toBe('number');
    expect(answers.slice(1).map((a) => a.error?.code)).toEqual([-32601, -32600, -32602]);
    const parse = await fetch(ready.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":' });
    expect(((await parse.json()) as { error: { code: number } }).error.code).toBe(-32700);
    expect(((await post(ready.url, [])).body as { error: { code: number } }).error.code).toBe(-32600);
    const invalid = await rpc.getBalance('not-an-address' as Address).send().catch((e: unknown) => e);
    expect(isSolanaError(invalid, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS)).toBe(true);
  });
});
