/** Sign-and-send: wire transactions (a memo signed by the receiver's managed wallet) built with @solana/kit. */
import {
  AccountRole,
  address,
  appendTransactionMessageInstruction,
  blockhash,
  compileTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';

const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
/** Any blockhash: the service replaces it with the chain's latest. */
const PLACEHOLDER_BLOCKHASH = blockhash('11111111111111111111111111111111');

/** `count` distinct base64 wire transactions: a memo "bench <i>" whose only signer is the managed wallet, fee payer the platform's. */
export function memoTransactions(managedWallet: string, feePayer: string, count: number): string[] {
  const signer = address(managedWallet);
  const payer = address(feePayer);
  return Array.from({ length: count }, (_, i) => {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: PLACEHOLDER_BLOCKHASH, lastValidBlockHeight: 0n }, m),
      (m) =>
        appendTransactionMessageInstruction(
          { programAddress: MEMO_PROGRAM, accounts: [{ address: signer, role: AccountRole.READONLY_SIGNER }], data: new TextEncoder().encode(`bench ${i}`) },
          m,
        ),
    );
    return getBase64EncodedWireTransaction(compileTransaction(message));
  });
}
