/**
 * The orders' production transfers (adapters/chain/solana-transfers.ts) against the chain
 * simulator: prepare signs and sends nothing; the stored bytes land once however often they are
 * sent; CONFIRMED only at the configured commitment, with the fee and the receiver's token account
 * rent the chain charged; EXPIRED only when the block height is past the transaction's last valid
 * one and the signature is unknown; decimals come from the mint; a 503 is ChainUnavailableError
 * naming the method, never the URL.
 */
import { type Address, address, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainTransferRefusedError, createSolanaTransfers, type SolanaTransfers, type TreasurySigner } from '../../src/adapters/chain/solana-transfers.ts';
import { ChainUnavailableError } from '../../src/adapters/chain/transactions-port.ts';
import { signerFromSeed } from '../../src/lib/key-vault.ts';
import { type ChainSimulator, startChainSimulator } from '../../tools/chain-simulator/index.ts';
import { ata, type Rpc, simulatorRpc, until } from '../helpers/chain-simulator.ts';
import { randomBytes } from 'node:crypto';

const FINALIZED_LAG = 3;

describe('Solana transfers (CHAIN_PROVIDER=solana-rpc) against the chain simulator', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let treasury: TreasurySigner;
  let usdc: Address;
  let odd: Address;
  let transfers: SolanaTransfers;
  const settings = (overrides: Partial<Parameters<typeof createSolanaTransfers>[0]['settings']> = {}) => ({
    rpcUrl: sim.url,
    commitment: 'finalized' as const,
    tokenMints: { USDC: usdc, ODD: odd, GONE: 'So11111111111111111111111111111111111111112' },
    computeUnitLimit: 60_000,
    priorityFeeMaxMicroLamports: 10_000,
    // The clock moves by hand: a blockhash or fee kept for half a second of wall time would span
    // the slots and fee levels the tests set at once. Reuse has its own test below.
    recentReadMs: 0,
    ...overrides,
  });

  beforeAll(async () => {
    // The clock moves only by hand: nothing races the assertions.
    sim = await startChainSimulator({ slotMs: 3_600_000, confirmedLag: 1, finalizedLag: FINALIZED_LAG });
    rpc = simulatorRpc(sim.url);
    treasury = signerFromSeed(randomBytes(32));
    await sim.airdrop(treasury.address, 10_000_000_000n);
    usdc = address((await sim.createMint({ decimals: 6 })).mint);
    odd = address((await sim.createMint({ decimals: 2, program: 'token-2022' })).mint);
    await sim.mintTo({ mint: usdc, owner: treasury.address, amount: 1_000_000_000n });
    await sim.mintTo({ mint: odd, owner: treasury.address, amount: 1_000_000n });
    transfers = createSolanaTransfers({ settings: settings(), treasuries: [treasury] });
  });
  afterAll(() => sim?.close());

  const wallet = async () => (await generateKeyPairSigner()).address;
  const lamports = async (who: string) => (await rpc.getBalance(address(who)).send()).value;
  const tokens = async (owner: Address, mint: Address, program?: Address) => {
    const account = await ata(owner, mint, program);
    return (await rpc.getTokenAccountBalance(account).send()).value.amount;
  };
  /**
   * Runs `run` while the node reports a priority fee above the cap (10,000 micro-lamports a unit),
   * and answers what the settled transaction paid above the signature's 5,000 lamports.
   */
  const priorityPaidAtCap = async (run: () => Promise<Awaited<ReturnType<SolanaTransfers['prepareTransfer']>>>) => {
    await sim.setFaults({ priorityFee: 50_000 });
    try {
      const prepared = await run();
      await transfers.sendTransfer(prepared);
      const state = await settle(prepared);
      expect(state.status).toBe('CONFIRMED');
      return Number(state.costs!.feeLamports) - 5000;
    } finally {
      await sim.reset();
    }
  };
  /** Slots until the status settles (landing takes one slot, finality FINALIZED_LAG more). */
  const settle = async (prepared: Awaited<ReturnType<SolanaTransfers['prepareTransfer']>>, via = transfers) =>
    until(async () => {
      const state = await via.getTransferStatus(prepared);
      if (state.status !== 'PENDING') return state;
      sim.advanceSlots(1);
      return undefined;
    });

  it('prepares without sending; the stored bytes land once however often they are sent; CONFIRMED at finalized with the costs the chain charged', async () => {
    const receiver = await wallet();
    const before = await lamports(treasury.address);
    const sentBefore = sim.state().transactions.sent;
    const prepared = await transfers.prepareTransfer({ reference: 'order-1', token: 'USDC', amount: '18.518518', destination: receiver });
    expect(prepared.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(prepared.lastValidBlockHeight).toMatch(/^\d+$/);
    expect(sim.state().transactions.sent).toBe(sentBefore);
    expect(await transfers.getTransferStatus(prepared)).toEqual({ status: 'PENDING' });

    await transfers.sendTransfer(prepared);
    await transfers.sendTransfer(prepared);
    sim.advanceSlots(1);
    await transfers.sendTransfer(prepared);
    // Landed, confirmed but not finalized: still PENDING at `finalized`, and known to have landed (nothing to send again).
    sim.advanceSlots(1);
    expect(await transfers.getTransferStatus(prepared)).toEqual({ status: 'PENDING', landed: true });
    const state = await settle(prepared);
    const rent = (await rpc.getMinimumBalanceForRentExemption(165n).send()).toString();
    expect(state).toEqual({ status: 'CONFIRMED', costs: { feeLamports: '5000', rentLamports: rent } });
    expect(await tokens(receiver, usdc)).toBe('18518518');
    expect(before - (await lamports(treasury.address))).toBe(5000n + BigInt(rent));

    // A second transfer to the same wallet: its token account exists, no rent.
    const again = await transfers.prepareTransfer({ reference: 'order-2', token: 'USDC', amount: '1', destination: receiver });
    await transfers.sendTransfer(again);
    expect(await settle(again)).toEqual({ status: 'CONFIRMED', costs: { feeLamports: '5000', rentLamports: '0' } });
    expect(await tokens(receiver, usdc)).toBe('19518518');
  });

  it('a batch carries as many of the given transfers as fit in 1,232 bytes, in order, and no fewer', async () => {
    // Half the receivers already hold a token account (no create instruction): transfers of both sizes.
    const receivers = await Promise.all(Array.from({ length: 24 }, wallet));
    for (const receiver of receivers.slice(0, 12)) await sim.mintTo({ mint: usdc, owner: receiver, amount: 1n });
    const intents = receivers.map((destination, i) => ({ reference: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, token: 'USDC', amount: '1', destination }));
    const bytes = (wire: string) => Buffer.from(wire, 'base64').length;

    const all = await transfers.prepareTransferBatch(intents);
    const fitted = all.instructionIndexes.length;
    expect(fitted).toBeGreaterThan(1);
    expect(fitted).toBeLessThan(intents.length);
    expect(bytes(all.wire)).toBeLessThanOrEqual(1232);
    // The first `fitted` alone fit whole; one more does not.
    expect((await transfers.prepareTransferBatch(intents.slice(0, fitted))).instructionIndexes).toHaveLength(fitted);
    expect((await transfers.prepareTransferBatch(intents.slice(0, fitted + 1))).instructionIndexes).toHaveLength(fitted);
    // Starting from the receivers without accounts (larger transfers): fewer fit, still as many as can.
    const larger = await transfers.prepareTransferBatch([...intents.slice(12), ...intents.slice(0, 12)]);
    const fittedLarger = larger.instructionIndexes.length;
    expect(fittedLarger).toBeLessThan(fitted);
    expect(larger.accountCreators).toHaveLength(Math.min(fittedLarger, 12));
    expect(bytes(larger.wire)).toBeLessThanOrEqual(1232);
    expect((await transfers.prepareTransferBatch([...intents.slice(12), ...intents.slice(0, 12)].slice(0, fittedLarger + 1))).instructionIndexes).toHaveLength(fittedLarger);
  });

  it('a batch asks for the compute units its simulation used (with a margin), not the configured budget per transfer', async () => {
    const receivers = await Promise.all(Array.from({ length: 3 }, wallet));
    const priority = await priorityPaidAtCap(() =>
      transfers.prepareTransferBatch(receivers.map((destination, i) => ({ reference: `00000000-0000-4000-8000-00000000010${i}`, token: 'USDC', amount: '1', destination }))),
    );
    // At the capped price the configured 3 × 60,000 units would add 1,800 lamports to the
    // signature's 5,000; three account creations and transfers use far fewer.
    expect(priority).toBeGreaterThan(0);
    expect(priority).toBeLessThan(900);
    for (const receiver of receivers) expect(await tokens(receiver, usdc)).toBe('1000000');
  });

  it("reads decimals from the mint (Token-2022 too) and refuses an amount finer than them, an unknown token, a missing mint", async () => {
    const receiver = await wallet();
    const prepared = await transfers.prepareTransfer({ reference: 'odd', token: 'ODD', amount: '12.34', destination: receiver });
    await transfers.sendTransfer(prepared);
    expect(await settle(prepared)).toMatchObject({ status: 'CONFIRMED' });
    expect(await tokens(receiver, odd, address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'))).toBe('1234');
    await expect(transfers.prepareTransfer({ reference: 'x', token: 'ODD', amount: '0.001', destination: receiver })).rejects.toThrow(ChainTransferRefusedError);
    await expect(transfers.prepareTransfer({ reference: 'x', token: 'NOPE', amount: '1', destination: receiver })).rejects.toThrow(ChainTransferRefusedError);
    await expect(transfers.prepareTransfer({ reference: 'x', token: 'GONE', amount: '1', destination: receiver })).rejects.toThrow(ChainTransferRefusedError);
  });

  it('pays the priority fee the node reports, capped by the configuration, for the units its simulation used', async () => {
    const destination = await wallet();
    const priority = await priorityPaidAtCap(() => transfers.prepareTransfer({ reference: 'fee', token: 'USDC', amount: '1', destination }));
    // At the capped price the configured 60,000 units would add 600 lamports to the signature's
    // 5,000: creating one token account and transferring use fewer.
    expect(priority).toBeGreaterThan(0);
    expect(priority).toBeLessThan(600);
  });

  it('a transaction that lands with an error is FAILED, its fee paid', async () => {
    const poor = signerFromSeed(randomBytes(32));
    await sim.airdrop(poor.address, 1_000_000_000n);
    await sim.mintTo({ mint: usdc, owner: poor.address, amount: 1n });
    const fromPoor = createSolanaTransfers({ settings: settings(), treasuries: [poor] });
    const prepared = await fromPoor.prepareTransfer({ reference: 'poor', token: 'USDC', amount: '5', destination: await wallet() });
    await fromPoor.sendTransfer(prepared);
    const state = await settle(prepared, fromPoor);
    expect(state).toMatchObject({ status: 'FAILED', error: expect.any(String), costs: { feeLamports: '5000' } });
  });

  it('EXPIRED only once no block can take it and the history does not know it; a late landing is never EXPIRED', async () => {
    await sim.setFaults({ dropNext: 1 });
    const dropped = await transfers.prepareTransfer({ reference: 'drop', token: 'USDC', amount: '1', destination: await wallet() });
    await transfers.sendTransfer(dropped);
    const landsLate = await transfers.prepareTransfer({ reference: 'late', token: 'USDC', amount: '1', destination: await wallet() });
    sim.advanceSlots(1);
    expect(await transfers.getTransferStatus(dropped)).toEqual({ status: 'PENDING' });
    // Just within its window the late one is sent and lands; then both windows pass.
    sim.advanceSlots(Number(BigInt(landsLate.lastValidBlockHeight) - BigInt(sim.state().slot)) - 1);
    await transfers.sendTransfer(landsLate);
    sim.advanceSlots(1);
    expect(await transfers.getTransferStatus(dropped)).toEqual({ status: 'PENDING' });
    // Past the last valid height at `finalized` (the root lags FINALIZED_LAG slots).
    sim.advanceSlots(FINALIZED_LAG + 2);
    expect(await transfers.getTransferStatus(dropped)).toEqual({ status: 'EXPIRED' });
    expect(await transfers.getTransferStatus(landsLate)).toMatchObject({ status: 'CONFIRMED' });
    // Sending the expired bytes again changes nothing.
    await transfers.sendTransfer(dropped).catch(() => undefined);
    sim.advanceSlots(1);
    expect(await transfers.getTransferStatus(dropped)).toEqual({ status: 'EXPIRED' });
  });

  it('a blockhash and the recent fees are read once for the transfers prepared within RECENT_READ_MS, and the blockhash again after an EXPIRED status', async () => {
    const keeping = createSolanaTransfers({ settings: settings({ recentReadMs: 60_000 }), treasuries: [treasury] });
    const calls = () => sim.state().calls;
    const before = calls();
    const asked = (method: string) => (calls()[method] ?? 0) - (before[method] ?? 0);
    const intent = async (reference: string) => ({ reference, token: 'USDC', amount: '1', destination: await wallet() });
    const first = await keeping.prepareTransfer(await intent('kept-1'));
    const batch = await keeping.prepareTransferBatch([await intent('00000000-0000-4000-8000-000000000201'), await intent('00000000-0000-4000-8000-000000000202')]);
    expect(batch.lastValidBlockHeight).toBe(first.lastValidBlockHeight);
    expect([asked('getLatestBlockhash'), asked('getRecentPrioritizationFees')]).toEqual([1, 1]);
    // Never sent: past its last valid height at `finalized`, EXPIRED; the next one is signed on a new blockhash.
    sim.advanceSlots(Number(BigInt(first.lastValidBlockHeight) - BigInt(sim.state().slot)) + FINALIZED_LAG + 2);
    expect(await keeping.getTransferStatus(first)).toEqual({ status: 'EXPIRED' });
    const resigned = await keeping.prepareTransfer(await intent('kept-1'));
    expect(asked('getLatestBlockhash')).toBe(2);
    expect(BigInt(resigned.lastValidBlockHeight)).toBeGreaterThan(BigInt(first.lastValidBlockHeight));
    expect(resigned.txHash).not.toBe(first.txHash);
  });

  it('a node answering 503 is ChainUnavailableError naming the method, never the URL', async () => {
    await sim.setFaults({ http: { status: 503, count: 1 } });
    const error = await transfers.prepareTransfer({ reference: 'u', token: 'USDC', amount: '1', destination: await wallet() }).catch((e: unknown) => e);
    await sim.reset();
    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect((error as Error).message).toMatch(/^Solana RPC \w+ failed/);
    expect((error as Error).message).not.toContain(sim.url);
    expect((error as Error).message).not.toContain('127.0.0.1');
  });

  it('a node that hangs is abandoned after the RPC timeout, as unavailable (a worker never outlives its lease on it)', async () => {
    const impatient = createSolanaTransfers({ settings: settings({ rpcTimeoutMs: 200 }), treasuries: [treasury] });
    await sim.setFaults({ hangMs: 2000 });
    const started = Date.now();
    const error = await impatient.prepareTransfer({ reference: 'h', token: 'USDC', amount: '1', destination: await wallet() }).catch((e: unknown) => e);
    await sim.reset();
    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
