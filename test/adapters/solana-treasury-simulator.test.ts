/**
 * The treasury's Solana reader against the chain simulator (tools/chain-simulator, LiteSVM
 * behind Solana's JSON-RPC): USDC-like and Token-2022 mints minted to the treasury are read back
 * from its associated accounts, a mint it holds none of is 0; through the app, fundings recorded
 * for what the chain holds reconcile with no drift, and a transfer out of the treasury that the
 * books never saw is a drift of exactly its tokens (and, in SOL, its fee and the rent of the
 * account it created).
 */
import { address, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChainSimulator, type ChainSimulator } from '../../tools/chain-simulator/index.ts';
import { createSolanaTreasuryReader } from '../../src/adapters/chain/solana-treasury.ts';
import { ChainUnavailableError } from '../../src/adapters/chain/transactions-port.ts';
import { ADMIN_TOKEN, type TestContext, createTestContext } from '../helpers/app.ts';
import { buildTransfer, simulatorRpc, statusOf, until } from '../helpers/chain-simulator.ts';

let sim: ChainSimulator;
let ctx: TestContext | undefined;
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

describe('the Solana treasury reader against the chain simulator', () => {
  let treasury: Awaited<ReturnType<typeof generateKeyPairSigner>>;
  let usdc: string;

  beforeAll(async () => {
    sim = await startChainSimulator({ slotMs: 20, confirmedLag: 1, finalizedLag: 2 });
    treasury = await generateKeyPairSigner();
    usdc = (await sim.createMint()).mint;
    await sim.airdrop(treasury.address, 2_000_000_000n);
    await sim.mintTo({ mint: usdc, owner: treasury.address, amount: 1_000_000_000n });
  });

  it('reads SOL and each token from the treasury’s associated accounts; a mint it holds none of is 0', async () => {
    const eurc = await sim.createMint({ program: 'token-2022', decimals: 2 });
    await sim.mintTo({ mint: eurc.mint, owner: treasury.address, amount: 12_345n });
    const none = await sim.createMint();
    const reader = createSolanaTreasuryReader({ url: sim.url, commitment: 'confirmed', addresses: [treasury.address], mints: { USDC: usdc, EURC: eurc.mint, PYUSD: none.mint } });
    expect(Object.fromEntries((await reader.readBalances()).get(1)!)).toEqual({ SOL: '2', USDC: '1000', EURC: '123.45', PYUSD: '0' });
  });

  it('a node answering 503 is ChainUnavailableError, without the URL', async () => {
    const reader = createSolanaTreasuryReader({ url: sim.url, addresses: [treasury.address], mints: { USDC: usdc } });
    await sim.setFaults({ http: { status: 503, count: 10 } });
    try {
      const error = await reader.readBalances().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(ChainUnavailableError);
      expect((error as Error).message).not.toContain(new URL(sim.url).host);
    } finally {
      await sim.reset();
    }
  });

  it('a hanging node is abandoned after the timeout', async () => {
    const reader = createSolanaTreasuryReader({ url: sim.url, addresses: [treasury.address], mints: { USDC: usdc }, timeoutMs: 200 });
    await sim.setFaults({ hangMs: 2000 });
    try {
      const started = Date.now();
      await expect(reader.readBalances()).rejects.toBeInstanceOf(ChainUnavailableError);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await sim.reset();
    }
  });

  it('reconciles with no drift once funded in the books; an unbooked transfer out is a drift of exactly its tokens', async () => {
    const reader = createSolanaTreasuryReader({ url: sim.url, commitment: 'confirmed', addresses: [treasury.address], mints: { USDC: usdc } });
    ctx = await createTestContext({}, { treasuryReader: reader });
    const fund = (currency: string, amount: string, reference: string) =>
      ctx!.app.inject({ method: 'POST', url: '/api/v1/admin/treasury/fundings', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { currency, amount, reference } });
    expect((await fund('USDC', '1000', 'usdc-opening')).statusCode).toBe(201);
    expect((await fund('SOL', '2', 'sol-opening')).statusCode).toBe(201);

    const balanced = await ctx.app.services.treasury.reconcile();
    expect(balanced).toMatchObject({ address: treasury.address, driftFound: false, inFlightTransfers: 0 });
    expect(balanced!.currencies.map((c) => [c.currency, c.onChain, c.ledger, c.drift])).toEqual([
      ['SOL', '2', '2', '0'],
      ['USDC', '1000', '1000', '0'],
    ]);

    // 12.5 USDC leave the treasury on chain, with nothing in the books.
    const rpc = simulatorRpc(sim.url);
    const receiver = await generateKeyPairSigner();
    const transfer = await buildTransfer(rpc, { payer: treasury, mint: address(usdc), to: receiver.address, amount: 12_500_000n });
    await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send();
    await until(async () => (await statusOf(rpc, transfer.signature))?.confirmationStatus === 'finalized');

    const drifted = await ctx.app.services.treasury.reconcile();
    expect(drifted!.driftFound).toBe(true);
    const usdcRun = drifted!.currencies.find((c) => c.currency === 'USDC')!;
    expect(usdcRun).toMatchObject({ onChain: '987.5', ledger: '1000', drift: '-12.5', drifted: true });
    // The fee and the receiver's account rent came out of the treasury's SOL.
    const solRun = drifted!.currencies.find((c) => c.currency === 'SOL')!;
    expect(Number(solRun.drift)).toBeLessThan(0);
    expect(Number(solRun.drift)).toBeGreaterThan(-0.01);
  });
});
