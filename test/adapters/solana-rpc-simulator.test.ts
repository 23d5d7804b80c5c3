/**
 * The managed wallets' JSON-RPC chain (adapters/chain/solana-rpc.ts) against the chain
 * simulator: a signed transfer is simulated then sent and reaches CONFIRMED and FINALIZED; a
 * failing one is refused by the simulation and costs its fee payer nothing; an unreachable
 * node (503) is ChainUnavailableError.
 */
import { getTransferSolInstruction } from '@solana-program/system';
import {
  type Address,
  appendTransactionMessageInstruction,
  type Blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getTransactionEncoder,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolanaRpcChain } from '../../src/adapters/chain/solana-rpc.ts';
import { ChainUnavailableError, type TransactionChain } from '../../src/adapters/chain/transactions-port.ts';
import { type ChainSimulator, startChainSimulator } from '../../tools/chain-simulator/index.ts';
import { type Rpc, simulatorRpc } from '../helpers/chain-simulator.ts';

describe('Solana JSON-RPC chain (managed wallets) against the chain simulator', () => {
  let sim: ChainSimulator;
  let chain: TransactionChain;
  let sponsor: KeyPairSigner;
  let destination: Address;
  let rpc: Rpc;

  beforeAll(async () => {
    sim = await startChainSimulator({ slotMs: 3_600_000, confirmedLag: 1, finalizedLag: 3 });
    chain = createSolanaRpcChain({ url: sim.url, commitment: 'confirmed' });
    rpc = simulatorRpc(sim.url);
    sponsor = await generateKeyPairSigner();
    destination = (await generateKeyPairSigner()).address;
    await sim.airdrop(sponsor.address, 1_000_000_000n);
  });
  afterAll(() => sim.close());

  async function transfer(lamports: bigint) {
    const blockhash = await chain.getLatestBlockhash();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(sponsor, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash.blockhash as Blockhash, lastValidBlockHeight: blockhash.lastValidBlockHeight }, m),
      (m) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: sponsor, destination, amount: lamports }), m),
    );
    return new Uint8Array(getTransactionEncoder().encode(await signTransactionMessageWithSigners(message)));
  }

  it('simulates, sends, and the status goes CONFIRMED then FINALIZED; the fee payer paid exactly the fee', async () => {
    const before = await balance(sponsor.address);
    const submitted = await chain.submitTransaction(await transfer(1_000_000n));
    expect(submitted).toMatchObject({ ok: true });
    const signature = (submitted as { signature: string }).signature;
    expect(await chain.getSignatureStatuses([signature])).toEqual([null]);
    sim.advanceSlots(2);
    expect(await chain.getSignatureStatuses([signature])).toEqual([{ status: 'CONFIRMED' }]);
    sim.advanceSlots(2);
    expect(await chain.getSignatureStatuses([signature])).toEqual([{ status: 'FINALIZED' }]);
    expect(before - (await balance(sponsor.address))).toBe(1_000_000n + 5_000n);
  });

  it('a transfer beyond the balance is refused by the simulation and costs nothing', async () => {
    const before = await balance(sponsor.address);
    const submitted = await chain.submitTransaction(await transfer(10_000_000_000n));
    expect(submitted).toMatchObject({ ok: false, error: expect.stringContaining('InstructionError') });
    sim.advanceSlots(2);
    expect(await balance(sponsor.address)).toBe(before);
  });

  it('a node answering 503 is ChainUnavailableError', async () => {
    await sim.setFaults({ http: { status: 503, count: 1 } });
    await expect(chain.getLatestBlockhash()).rejects.toBeInstanceOf(ChainUnavailableError);
    await sim.reset();
  });

  const balance = async (address: Address) => (await rpc.getBalance(address, { commitment: 'processed' }).send()).value;
});
