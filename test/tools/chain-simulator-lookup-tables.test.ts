/**
 * Address lookup tables on the chain simulator (decision 0056): a table created for a recent slot
 * and extended by the treasury's instructions (src/adapters/chain/lookup-tables.ts) holds its
 * addresses from the next slot; a version 0 transfer whose destination is loaded from it lands,
 * and getTransaction shows the loaded accounts as a node does (meta.loadedAddresses, token balances
 * indexed over static then loaded keys). A table for a slot the chain never had is refused.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferCheckedInstruction } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLookupTable, extendLookupTable, parseLookupTable } from '../../src/adapters/chain/lookup-tables.ts';
import { type ChainSimulator } from '../../tools/chain-simulator/index.ts';
import { ata, fundedSender, type Rpc, startHandClockedChain, statusOf } from '../helpers/chain-simulator.ts';

describe('chain simulator: address lookup tables', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let usdc: Address;
  let payer: KeyPairSigner;

  beforeAll(async () => {
    ({ sim, rpc, usdc } = await startHandClockedChain(5));
    payer = await fundedSender(sim, usdc);
  });
  afterAll(() => sim.close());

  async function send(instructions: Instruction[], tables: Record<Address, Address[]> = {}) {
    const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'processed' }).send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
      (m) => compressTransactionMessageUsingAddressLookupTables(m, tables),
    );
    const signed = await signTransactionMessageWithSigners(message);
    await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', skipPreflight: true }).send();
    // Landed in the next slot, confirmed one later.
    sim.advanceSlots(2);
    return getSignatureFromTransaction(signed);
  }

  it('creates and extends a table; a transfer loads its destination from it the slot after', async () => {
    sim.advanceSlots(3);
    const recentSlot = await rpc.getSlot({ commitment: 'processed' }).send();
    const { table, instruction } = await createLookupTable(payer.address, recentSlot);
    const receivers = await Promise.all(Array.from({ length: 3 }, async () => (await generateKeyPairSigner()).address));
    const destinations = await Promise.all(receivers.map((owner) => ata(owner, usdc)));
    for (const destination of destinations) await sim.mintTo({ mint: usdc, owner: receivers[destinations.indexOf(destination)]!, amount: 1n });
    const created = await send([instruction, extendLookupTable(table, payer.address, destinations)]);
    expect((await statusOf(rpc, created))?.err).toBeNull();

    const account = await rpc.getAccountInfo(table, { encoding: 'base64' }).send();
    expect(parseLookupTable(Buffer.from(account.value!.data[0], 'base64'))).toEqual({ active: true, authority: payer.address, addresses: destinations });

    const source = await ata(payer.address, usdc);
    const transfer = getTransferCheckedInstruction({ source, mint: usdc, destination: destinations[1]!, authority: payer, amount: 250_000n, decimals: 6 });
    const signature = await send([transfer], { [table]: destinations });
    const tx = (await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send())!;
    expect(tx.meta!.err).toBeNull();
    expect(tx.transaction.message.accountKeys).not.toContain(destinations[1]);
    expect('addressTableLookups' in tx.transaction.message && tx.transaction.message.addressTableLookups).toEqual([{ accountKey: table, writableIndexes: [1], readonlyIndexes: [] }]);
    expect(tx.meta!.loadedAddresses).toEqual({ writable: [destinations[1]], readonly: [] });
    const keys = [...tx.transaction.message.accountKeys, destinations[1]];
    const received = tx.meta!.postTokenBalances!.find((b) => keys[b.accountIndex] === destinations[1]);
    expect(received?.uiTokenAmount.amount).toBe('250001');
  });

  it('refuses a table for a slot the chain never had', async () => {
    const { instruction } = await createLookupTable(payer.address, 10_000_000n);
    const signature = await send([instruction]);
    expect((await statusOf(rpc, signature))?.err).not.toBeNull();
  });
});
