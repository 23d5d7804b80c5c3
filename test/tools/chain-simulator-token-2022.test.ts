/**
 * The chain simulator's Token-2022 mints with PYUSD's extensions (TransferFeeConfig, TransferHook):
 * the bytes it writes are the token program's own, so the program in its VM moves them as on a
 * cluster: with a zero fee and no hook program the whole amount arrives; with a fee, the program
 * withholds it (the reason the service refuses such a mint).
 */
import { type Address, generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainSimulator, startChainSimulator, TOKEN_2022_PROGRAM } from '../../tools/chain-simulator/index.ts';
import { buildTransfer, type Rpc, simulatorRpc, statusOf } from '../helpers/chain-simulator.ts';

const tokenProgram = TOKEN_2022_PROGRAM as Address;

describe('chain simulator: Token-2022 mints with transfer fee and hook extensions', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;

  beforeAll(async () => {
    sim = await startChainSimulator({ slotMs: 3_600_000, confirmedLag: 1, finalizedLag: 2 });
    rpc = simulatorRpc(sim.url);
  });
  afterAll(() => sim.close());

  async function moved(extensions: object, amount: bigint) {
    const mint = (await sim.createMint({ decimals: 6, program: 'token-2022', extensions })).mint as Address;
    const payer = await generateKeyPairSigner();
    await sim.airdrop(payer.address, 1_000_000_000n);
    await sim.mintTo({ mint, owner: payer.address, amount: 10_000_000n });
    const receiver = (await generateKeyPairSigner()).address;
    const transfer = await buildTransfer(rpc, { payer, mint, to: receiver, amount, decimals: 6, tokenProgram });
    await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send();
    sim.advanceSlots(1);
    return { mint, transfer, status: await statusOf(rpc, transfer.signature) };
  }

  it('a PYUSD-like mint (zero fee, no hook program) moves the whole amount; accounts carry the extensions', async () => {
    const { mint, transfer, status } = await moved({ transferFee: {}, transferHook: {} }, 2_500_000n);
    expect(status).toMatchObject({ err: null });
    const mintData = Buffer.from((await rpc.getAccountInfo(mint, { encoding: 'base64' }).send()).value!.data[0], 'base64');
    // Base mint padded to 165, account type 1, TransferFeeConfig (1, 108 bytes), TransferHook (14, 64 bytes).
    expect([mintData.length, mintData[165], mintData.readUInt16LE(166), mintData.readUInt16LE(168), mintData.readUInt16LE(278)]).toEqual([346, 1, 1, 108, 14]);
    const received = await rpc.getTokenAccountBalance(transfer.destination).send();
    expect(received.value.amount).toBe('2500000');
    // The receiver's account was made by the ATA program in the VM, the payer's by the simulator: the same shape.
    const [made, minted] = await Promise.all(
      [transfer.destination, transfer.source].map(async (account) => Buffer.from((await rpc.getAccountInfo(account, { encoding: 'base64' }).send()).value!.data[0], 'base64')),
    );
    expect(minted!.length).toBe(made!.length);
    expect(made!.subarray(165)).toEqual(minted!.subarray(165));
  });

  it('a mint with a 1 % fee: the program withholds it from what arrives', async () => {
    const { transfer, status } = await moved({ transferFee: { basisPoints: 100, maximumFee: '1000000' }, transferHook: {} }, 2_000_000n);
    expect(status).toMatchObject({ err: null });
    expect((await rpc.getTokenAccountBalance(transfer.destination).send()).value.amount).toBe('1980000');
  });

  it('refuses extensions on an SPL Token mint', async () => {
    await expect(sim.createMint({ program: 'token', extensions: { transferFee: {} } })).rejects.toThrow(/token-2022/);
  });
});
