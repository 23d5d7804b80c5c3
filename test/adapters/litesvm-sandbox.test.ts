/**
 * The in-process sandbox chain accepts a transaction built on any of its last 150 blockhashes, as a
 * cluster does (LiteSVM alone accepts only its latest), and refuses one built on any other.
 */
import { getTransferSolInstruction } from '@solana-program/system';
import {
  type Blockhash,
  appendTransactionMessageInstruction,
  createTransactionMessage,
  generateKeyPairSigner,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createLiteSvmSandbox } from '../../src/adapters/chain/litesvm-sandbox.ts';

describe('LiteSVM sandbox chain: recent blockhashes', () => {
  it('a transaction on an earlier recent blockhash lands; one on a blockhash the chain never gave is BlockhashNotFound', async () => {
    const payer = await generateKeyPairSigner();
    const chain = createLiteSvmSandbox({ sponsorAddress: payer.address, sponsorLamports: 10_000_000_000 });
    const transfer = async (blockhash: string, lamports: number) => {
      const to = (await generateKeyPairSigner()).address;
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash as Blockhash, lastValidBlockHeight: 1_000n }, m),
        (m) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: payer, destination: to, amount: lamports }), m),
      );
      return chain.submitTransaction(new Uint8Array(getTransactionEncoder().encode(await signTransactionMessageWithSigners(message))));
    };

    const { blockhash: first } = await chain.getLatestBlockhash();
    // Two transactions built on one blockhash before either is sent: both land, as on a cluster.
    expect(await transfer(first, 1_000_000)).toMatchObject({ ok: true });
    expect(await transfer(first, 2_000_000)).toMatchObject({ ok: true });
    expect((await chain.getLatestBlockhash()).blockhash).not.toBe(first);
    const never = (await generateKeyPairSigner()).address;
    expect(await transfer(never, 1_000_000)).toMatchObject({ ok: false, error: 'BlockhashNotFound' });
  });
});
