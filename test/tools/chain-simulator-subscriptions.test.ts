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
import { type Rpc, simulatorRpc, simulatorRpcSubscriptions } from '../helpers/chain-simulator.ts';

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
