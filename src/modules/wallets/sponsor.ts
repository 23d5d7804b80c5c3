/**
 * The sponsored rewrite: the caller's message recompiled with the platform's fee payer as
 * account 0 and a fresh blockhash (its instructions and their accounts unchanged), then signed by
 * the sponsor and the managed key. A client that already set the sponsor as fee payer gets the
 * same treatment: only the blockhash changes.
 */
import {
  type Address,
  type Blockhash,
  compileTransaction,
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Transaction,
} from '@solana/kit';
import type { Signer } from './keys.ts';
import { type MessageView, viewOf } from './message.ts';
import { type DecodedTransaction, encodeTransaction, withSignature } from './transaction.ts';

export interface SponsoredTransaction {
  transaction: Transaction;
  view: MessageView;
  wire: Uint8Array;
}

/** Recompiles with `sponsor` as fee payer and `blockhash` as lifetime; unsigned. */
export function rewriteForSponsor(decoded: DecodedTransaction, sponsor: string, lifetime: { blockhash: string; lastValidBlockHeight: bigint }): { transaction: Transaction; view: MessageView } {
  // The decoder reads the lifetime token too; its declared type leaves it out.
  const message = decompileTransactionMessage(decoded.compiled as Parameters<typeof decompileTransactionMessage>[0]);
  const sponsored = setTransactionMessageLifetimeUsingBlockhash(
    { blockhash: lifetime.blockhash as Blockhash, lastValidBlockHeight: lifetime.lastValidBlockHeight },
    setTransactionMessageFeePayer(sponsor as Address, message),
  );
  const transaction = compileTransaction(sponsored) as Transaction;
  const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  if (compiled.version !== 'legacy' && compiled.version !== 0) throw new Error(`rewrite produced a version ${compiled.version} message`);
  return { transaction, view: viewOf(compiled) };
}

/** Signs the rewritten transaction with every signer it requires among `signers`. */
export function signAll(transaction: Transaction, signers: Signer[]): SponsoredTransaction {
  let signed = transaction;
  for (const signer of signers) {
    if (signer.address in signed.signatures) signed = withSignature(signed, signer.address, signer.sign(new Uint8Array(signed.messageBytes)));
  }
  const compiled = getCompiledTransactionMessageDecoder().decode(signed.messageBytes);
  if (compiled.version !== 'legacy' && compiled.version !== 0) throw new Error('unexpected message version');
  return { transaction: signed, view: viewOf(compiled), wire: encodeTransaction(signed) };
}
