/**
 * A prepared (signed, stored) transaction on a Solana node, as the exactly-once protocol of the
 * orders' port asks (port.ts): `send` re-sends the same bytes, never a new transaction; `status`
 * is EXPIRED only when the finalized block height is past the transaction's last valid block
 * height and the node's whole history does not know its signature. Shared by the PAYIN transfers
 * (solana-transfers.ts) and the deposit sweeps (solana-sweeps.ts): one rule, one implementation.
 */
import type { Address, Base64EncodedWireTransaction, Signature } from '@solana/kit';
import type { PreparedTransfer, TransferState } from './port.ts';
import type { SolanaRpc } from './solana-mints.ts';

type RpcCall = <T>(method: string, run: (abortSignal: AbortSignal) => Promise<T>) => Promise<T>;

const rank = { processed: 0, confirmed: 1, finalized: 2 } as const;

const errorText = (err: unknown): string => (typeof err === 'string' ? err : JSON.stringify(err, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));

/**
 * `costs` of a landed transaction: the fee, and `rentLamports`, what left the fee payer beyond the
 * fee (rent of an account it created; negative when it received more than it paid, e.g. the rent
 * of an account closed to it).
 */
export function createPreparedTransactions(deps: { rpc: SolanaRpc; rpcCall: RpcCall; commitment: 'confirmed' | 'finalized'; feePayer?: Address }) {
  const { rpc, rpcCall, commitment, feePayer } = deps;

  async function send(prepared: PreparedTransfer): Promise<void> {
    // No preflight: a transaction that would fail lands FAILED (its fee paid) and the caller acts
    // on that, where a refused preflight would leave it pending until its blockhash expired.
    await rpcCall('sendTransaction', (abortSignal) =>
      rpc.sendTransaction(prepared.wire as Base64EncodedWireTransaction, { encoding: 'base64', skipPreflight: true, maxRetries: 0n }).send({ abortSignal }),
    ).catch((err: unknown) => {
      // Already processed: it landed, the status will say how.
      if (/already (been )?processed/i.test(String((err as Error).message))) return;
      throw err;
    });
  }

  async function costsOf(signature: Signature) {
    const tx = await rpcCall('getTransaction', (abortSignal) =>
      rpc.getTransaction(signature, { commitment, encoding: 'json', maxSupportedTransactionVersion: 0 }).send({ abortSignal }),
    );
    if (!tx?.meta) return undefined;
    // Without a named payer, the message's first account: a transaction's fee payer always is.
    const index = feePayer === undefined ? 0 : tx.transaction.message.accountKeys.findIndex((key) => key === feePayer);
    const fee = BigInt(tx.meta.fee);
    const spent = index < 0 ? fee : BigInt(tx.meta.preBalances[index]!) - BigInt(tx.meta.postBalances[index]!);
    return { feeLamports: fee.toString(), rentLamports: (spent - fee).toString() };
  }

  async function signatureStatus(signature: Signature) {
    const { value } = await rpcCall('getSignatureStatuses', (abortSignal) => rpc.getSignatureStatuses([signature], { searchTransactionHistory: true }).send({ abortSignal }));
    return value[0];
  }

  async function status(prepared: PreparedTransfer): Promise<TransferState> {
    const signature = prepared.txHash as Signature;
    // A signature the node knows needs no height. One it does not know is asked about again after
    // the height is read: still unknown then, it cannot have landed at or below that height.
    let entry = await signatureStatus(signature);
    if (!entry) {
      const height = await rpcCall('getBlockHeight', (abortSignal) => rpc.getBlockHeight({ commitment: 'finalized' }).send({ abortSignal }));
      entry = await signatureStatus(signature);
      if (!entry) return height > BigInt(prepared.lastValidBlockHeight) ? { status: 'EXPIRED' } : { status: 'PENDING' };
    }
    if (!entry.confirmationStatus || rank[entry.confirmationStatus] < rank[commitment]) return { status: 'PENDING', landed: true };
    const costs = await costsOf(signature);
    if (!costs) return { status: 'PENDING', landed: true };
    return entry.err ? { status: 'FAILED', error: errorText(entry.err), costs } : { status: 'CONFIRMED', costs };
  }

  return { send, status };
}
