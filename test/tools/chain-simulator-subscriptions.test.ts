/**
 * The simulator's websocket subscriptions, through kit's own helpers that need them:
 * airdropFactory and sendAndConfirmTransactionFactory (signatureSubscribe, slotSubscribe), and
 * accountNotifications (accountSubscribe).
 */
import { getTransferSolInstruction } from '@solana-program/system';
import {
  airdropFactory,
  appendTransactionMessageInstruction,
  assertIsTransactionWithBlockhashLifetime,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainSimulator, startChainSimulator } from '../../tools/chain-simulator/index.ts';
import { type Rpc, simulatorRpc, simulatorRpcSubscriptions, startHandClockedChain } from '../helpers/chain-simulator.ts';

describe('chain simulator: websocket subscriptions (kit helpers)', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let rpcSubscriptions: ReturnType<typeof simulatorRpcSubscriptions>;

  beforeAll(async () => {
    sim = await startChainSimulator({ slotMs: 20, confirmedLag: 1, finalizedLag: 4 });
    rpc = simulatorRpc(sim.url);
    rpcSubscriptions = simulatorRpcSubscriptions(sim.wsUrl);
  });
  afterAll(() => sim.close());

  it('airdropFactory and sendAndConfirmTransactionFactory confirm through signature and slot notifications', async () => {
    const payer = await generateKeyPairSigner();
    const receiver = (await generateKeyPairSigner()).address;
    await airdropFactory({ rpc, rpcSubscriptions })({ recipientAddress: payer.address, lamports: lamports(1_000_000_000n), commitment: 'confirmed' });
    expect((await rpc.getBalance(payer.address, { commitment: 'confirmed' }).send()).value).toBe(1_000_000_000n);

    const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const signed = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
        (m) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: payer, destination: receiver, amount: 5_000_000n }), m),
      ),
    );
    assertIsTransactionWithBlockhashLifetime(signed);
    const notifications = await rpcSubscriptions.accountNotifications(receiver, { commitment: 'confirmed', encoding: 'base64' }).subscribe({ abortSignal: AbortSignal.timeout(5_000) });
    const firstChange = (async () => {
      for await (const notification of notifications) return notification.value?.lamports;
    })();
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(signed, { commitment: 'finalized' });
    const status = (await rpc.getSignatureStatuses([getSignatureFromTransaction(signed)]).send()).value[0];
    expect(status?.confirmationStatus).toBe('finalized');
    expect(await firstChange).toBe(5_000_000n);
  });
});

describe('chain simulator: accountSubscribe at finalized (hand-clocked)', () => {
  const FINALIZED_LAG = 3;
  let sim: ChainSimulator;
  let rpcSubscriptions: ReturnType<typeof simulatorRpcSubscriptions>;

  beforeAll(async () => {
    ({ sim } = await startHandClockedChain(FINALIZED_LAG));
    rpcSubscriptions = simulatorRpcSubscriptions(sim.wsUrl);
  });
  afterAll(() => sim?.close());

  /** Every notification's lamports, as they come. */
  function collect(notifications: AsyncIterable<{ value: { lamports: bigint } | null }>) {
    const seen: Array<bigint | undefined> = [];
    void (async () => {
      for await (const notification of notifications) seen.push(notification.value?.lamports);
    })().catch(() => undefined);
    return seen;
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

  it('a change is notified once final, also one made before the subscription (as a node does); never while only confirmed', async () => {
    sim.advanceSlots(FINALIZED_LAG + 1);
    const before = (await generateKeyPairSigner()).address;
    await sim.airdrop(before, 7_000_000n);
    const early = collect(await rpcSubscriptions.accountNotifications(before, { commitment: 'finalized', encoding: 'base64' }).subscribe({ abortSignal: AbortSignal.timeout(5_000) }));
    const after = (await generateKeyPairSigner()).address;
    const late = collect(await rpcSubscriptions.accountNotifications(after, { commitment: 'finalized', encoding: 'base64' }).subscribe({ abortSignal: AbortSignal.timeout(5_000) }));
    await sim.airdrop(after, 9_000_000n);
    sim.advanceSlots(FINALIZED_LAG - 1);
    await settle();
    expect(late).toEqual([]);
    sim.advanceSlots(2);
    await settle();
    expect(early).toEqual([7_000_000n]);
    expect(late).toEqual([9_000_000n]);
  });
});
