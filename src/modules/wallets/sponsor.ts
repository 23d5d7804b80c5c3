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
  getShortU16Decoder,
  decompileTransactionMessage,
  getCompiledTransactionMessageDecoder,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Transaction,
} from '@solana/kit';
import { decodeBase58 } from '../../lib/base58.ts';
import type { Signer } from '../../lib/key-vault.ts';
import { type MessageView, viewOf } from './message.ts';
import { type DecodedTransaction, encodeTransaction, withSignature } from './transaction.ts';

export interface SponsoredTransaction {
  transaction: Transaction;
  view: MessageView;
  wire: Uint8Array;
}

/**
 * Recompiles with `sponsor` as fee payer and `blockhash` as lifetime; unsigned. A message whose
 * fee payer is already the sponsor (what clients that read GET /wallet/fee-payer send) keeps its
 * bytes and only gets the new blockhash: recompiling would turn every address to base58 text and
 * back, which was the costliest step of sign-and-send after the chain itself.
 */
export function rewriteForSponsor(decoded: DecodedTransaction, sponsor: string, lifetime: { blockhash: string; lastValidBlockHeight: bigint }): { transaction: Transaction; view: MessageView } {
  if (decoded.view.staticAccounts[0] === sponsor) return { transaction: withBlockhash(decoded, lifetime.blockhash), view: decoded.view };
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

/**
 * The same message with its recent blockhash replaced in place and every signature cleared.
 * Layout (legacy and v0): [0x80 | version, v0 only] [3 header bytes] [compact-u16 key count]
 * [32 × keys] [32-byte blockhash] ... The key count is read with the decoder that read the message,
 * so a count written in more bytes than it needs still finds the blockhash where kit found it.
 */
function withBlockhash(decoded: DecodedTransaction, blockhash: string): Transaction {
  const messageBytes = new Uint8Array(decoded.transaction.messageBytes);
  const [keys, keysStart] = getShortU16Decoder().read(messageBytes, (decoded.view.version === 0 ? 1 : 0) + 3);
  const blockhashBytes = decodeBase58(blockhash);
  if (keys !== decoded.view.staticAccounts.length || blockhashBytes.length !== 32) throw new Error('unexpected message layout');
  messageBytes.set(blockhashBytes, keysStart + 32 * keys);
  const signatures = Object.fromEntries(Object.keys(decoded.transaction.signatures).map((signer) => [signer, null]));
  return { messageBytes: messageBytes as unknown as Transaction['messageBytes'], signatures } as Transaction;
}

/** Signs the rewritten transaction (whose view is `view`) with every signer it requires among `signers`. */
export function signAll(transaction: Transaction, view: MessageView, signers: Signer[]): SponsoredTransaction {
  let signed = transaction;
  for (const signer of signers) {
    if (signer.address in signed.signatures) signed = withSignature(signed, signer.address, signer.sign(new Uint8Array(signed.messageBytes)));
  }
  return { transaction: signed, view, wire: encodeTransaction(signed) };
}
