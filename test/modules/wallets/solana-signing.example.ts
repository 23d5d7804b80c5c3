import {
  address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Signature,
} from '@solana/kit';
import { getAddMemoInstruction } from '@solana-program/memo';

export interface MemoRequest {
  apiUrl: string; // e.g. https://api.example.com/api/v1
  headers: Record<string, string>; // x-api-key and x-api-secret, or Authorization: Bearer <token>
  rpcUrl: string; // your Solana JSON-RPC node
  receiverId: string;
  walletAddress: string; // the receiver's managed wallet (walletAddress of GET /receivers/{id})
  memo: string;
}

/** Builds a Memo signed by the receiver's managed wallet, has the platform sign, pay and send it, and waits for confirmation. */
export async function sendMemo(request: MemoRequest): Promise<string> {
  const api = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${request.apiUrl}${path}`, {
      method,
      headers: { ...request.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`); // e.g. 422 TRANSACTION_REJECTED, details.reason
    return json as T;
  };
  const rpc = createSolanaRpc(request.rpcUrl);

  // 1. The fee payer: always the platform's, from GET /wallet/fee-payer (public, cacheable).
  const { address: feePayer } = await api<{ address: string }>('GET', '/wallet/fee-payer');
  // 2. A recent blockhash (the platform replaces it with its own when it sends).
  const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
  // 3. The message: fee payer, blockhash, and a Memo the managed wallet signs. The platform holds
  //    the wallet's key, so the wallet is a no-op signer here: nothing is signed on this side.
  const wallet = createNoopSigner(address(request.walletAddress));
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(feePayer), m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
    (m) => appendTransactionMessageInstruction(getAddMemoInstruction({ memo: request.memo, signers: [wallet] }), m),
  );
  // 4. Compiled, unsigned, base64: the platform signs as fee payer and as the wallet, simulates and sends.
  const transaction = getBase64EncodedWireTransaction(compileTransaction(message));
  const { hash } = await api<{ hash: string }>('POST', `/receivers/${request.receiverId}/wallet/sign-and-send-transaction`, { transaction });
  // 5. Confirmation: `hash` is the transaction's signature; poll the node until it is confirmed.
  for (let attempt = 0; attempt < 30; attempt++) {
    const { value: [status] } = await rpc.getSignatureStatuses([hash as Signature]).send();
    if (status?.err) throw new Error(`transaction ${hash} failed: ${JSON.stringify(status.err)}`);
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return hash;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`transaction ${hash} was not confirmed in 30 s (its blockhash may have expired: send it again)`);
}
