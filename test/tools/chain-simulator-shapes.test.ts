/**
 * The chain simulator's answers in the shapes kit and the program clients read: a legacy
 * transaction sent base58 and read back jsonParsed, a failing transfer sent without preflight
 * (it lands with its error and pays its fee), @solana-program/token's fetchMint and fetchToken,
 * getMultipleAccounts, getFeeForMessage, getRecentPrioritizationFees, a memo in an address's
 * history, and the cluster's identity methods.
 */
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { fetchMint, fetchToken } from '@solana-program/token';
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64Decoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionMessageBytesBase64,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainSimulator, startChainSimulator } from '../../tools/chain-simulator/index.ts';
import { buildTransfer, type Rpc, simulatorRpc, statusOf } from '../helpers/chain-simulator.ts';

const MEMO = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
/** kit reads most numbers as bigint and a few as number: compare as plain numbers. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as unknown;

describe('chain simulator: answer shapes', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let mint: Address;

  beforeAll(async () => {
    sim = await startChainSimulator({ slotMs: 3_600_000, confirmedLag: 1, finalizedLag: 2, priorityFee: 1_500 });
    rpc = simulatorRpc(sim.url);
    mint = (await sim.createMint({ decimals: 6 })).mint as Address;
  });
  afterAll(() => sim.close());

  it('a legacy transaction with a memo, sent base58, read back jsonParsed; the memo is in the history', async () => {
    const payer = await generateKeyPairSigner();
    await sim.airdrop(payer.address, 100_000_000);
    const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'processed' }).send();
    const message = pipe(
      createTransactionMessage({ version: 'legacy' }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getSetComputeUnitLimitInstruction({ units: 10_000 }),
            getSetComputeUnitPriceInstruction({ microLamports: 250_000n }),
            { programAddress: MEMO, data: new TextEncoder().encode('order 42') },
          ],
          m,
        ),
    );
    const fee = await rpc.getFeeForMessage(getBase64Decoder().decode(compileTransaction(message).messageBytes) as TransactionMessageBytesBase64).send();
    expect(fee.value).toBe(5_000n + 2_500n);
    const signed = await signTransactionMessageWithSigners(message);
    const wire = getBase58Decoder().decode(getTransactionEncoder().encode(signed));
    const signature = await rpc.sendTransaction(wire as never).send();
    sim.advanceSlots(2);
    const tx = (await rpc.getTransaction(signature, { encoding: 'jsonParsed' }).send())!;
    expect(tx.meta!.fee).toBe(7_500n);
    expect(tx.transaction.message.accountKeys[0]).toMatchObject({ pubkey: payer.address, signer: true, writable: true, source: 'transaction' });
    expect(tx.transaction.message.instructions[2]).toMatchObject({ programId: MEMO, accounts: [] });
    const history = await rpc.getSignaturesForAddress(payer.address).send();
    expect(history[0]).toMatchObject({ signature, memo: '[8] order 42' });
    expect(await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send()).toMatchObject({ version: 'legacy' });
  });

  it('without preflight, a failing transfer lands with its error and its fee is charged', async () => {
    const payer = await generateKeyPairSigner();
    await sim.airdrop(payer.address, 100_000_000);
    await sim.mintTo({ mint, owner: payer.address, amount: 10n });
    const transfer = await buildTransfer(rpc, { payer, mint, to: (await generateKeyPairSigner()).address, amount: 11n, units: 50_000, microLamports: 0n });
    await rpc.sendTransaction(transfer.wire, { encoding: 'base64', skipPreflight: true }).send();
    sim.advanceSlots(2);
    const status = (await statusOf(rpc, transfer.signature))!;
    expect(plain(status.err)).toEqual({ InstructionError: [3, { Custom: 1 }] });
    const tx = (await rpc.getTransaction(transfer.signature, { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 }).send())!;
    expect(tx.meta!.fee).toBe(5_000n);
    expect(tx.meta!.preBalances[0]! - tx.meta!.postBalances[0]!).toBe(5_000n);
    expect(plain(tx.meta!.status)).toEqual({ Err: { InstructionError: [3, { Custom: 1 }] } });
    expect((await rpc.getTokenAccountBalance(transfer.source).send()).value.amount).toBe('10');
  });

  it("@solana-program/token's fetchMint and fetchToken decode the accounts; getProgramAccounts filters; getMultipleAccounts answers null for a missing one", async () => {
    const owner = (await generateKeyPairSigner()).address;
    const { tokenAccount } = await sim.mintTo({ mint, owner, amount: 123n });
    expect((await fetchMint(rpc, mint)).data).toMatchObject({ decimals: 6, isInitialized: true });
    expect((await fetchToken(rpc, tokenAccount as Address)).data).toMatchObject({ mint, owner, amount: 123n });
    const owned = await rpc
      .getProgramAccounts(address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), { encoding: 'base64', filters: [{ dataSize: 165n }, { memcmp: { offset: 32n, bytes: owner as never, encoding: 'base58' } }] })
      .send();
    expect(owned.map((entry) => entry.pubkey)).toEqual([tokenAccount]);
    const missing = (await generateKeyPairSigner()).address;
    const { value } = await rpc.getMultipleAccounts([mint, missing], { encoding: 'base64' }).send();
    expect(value[0]?.owner).toBe('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    expect(value[1]).toBeNull();
  });

  it('the priority fee level, the epoch, the version and the genesis hash', async () => {
    const fees = await rpc.getRecentPrioritizationFees().send();
    expect(fees.length).toBeGreaterThan(0);
    expect(fees.every((entry) => entry.prioritizationFee === 1_500n)).toBe(true);
    await sim.setFaults({ priorityFee: 9_000 });
    expect((await rpc.getRecentPrioritizationFees([mint]).send()).at(-1)?.prioritizationFee).toBe(9_000n);
    const epoch = await rpc.getEpochInfo({ commitment: 'processed' }).send();
    expect(epoch).toMatchObject({ absoluteSlot: epoch.blockHeight, slotsInEpoch: 432_000n });
    expect((await rpc.getVersion().send())['solana-core']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await rpc.getGenesisHash().send()).toBe(await rpc.getGenesisHash().send());
    await sim.reset();
  });
});
