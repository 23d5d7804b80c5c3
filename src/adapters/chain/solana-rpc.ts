/**
 * The managed wallets' chain over a Solana JSON-RPC node (SOLANA_RPC_URL), through @solana/kit's
 * RPC client: getLatestBlockhash, simulateTransaction, sendTransaction, getSignatureStatuses.
 * Every failure to talk to the node becomes ChainUnavailableError (503 to the caller).
 */
import type { Base64EncodedWireTransaction, Signature } from '@solana/kit';
import { ChainUnavailableError, type SignatureStatus, type TransactionChain } from './transactions-port.ts';
import { createRpcClient } from './solana-rpc-client.ts';

const toBase64 = (wire: Uint8Array) => Buffer.from(wire).toString('base64') as Base64EncodedWireTransaction;

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    // The URL may carry an API key: the message names the method only.
    throw new ChainUnavailableError(`Solana RPC ${what} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

const errorText = (err: unknown): string => (typeof err === 'string' ? err : JSON.stringify(err, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));

export function createSolanaRpcChain(options: { url: string; commitment?: 'processed' | 'confirmed' | 'finalized' }): TransactionChain {
  const rpc = createRpcClient(options.url);
  const commitment = options.commitment ?? 'confirmed';
  const chain: TransactionChain = {
    kind: 'solana-rpc',

    async getLatestBlockhash() {
      const { value } = await call('getLatestBlockhash', () => rpc.getLatestBlockhash({ commitment }).send());
      return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight };
    },

    async simulateTransaction(wire) {
      const { value } = await call('simulateTransaction', () =>
        rpc.simulateTransaction(toBase64(wire), { encoding: 'base64', sigVerify: true, replaceRecentBlockhash: false, commitment }).send(),
      );
      const logs = [...(value.logs ?? [])];
      if (value.err) return { ok: false, error: errorText(value.err), logs };
      return { ok: true, unitsConsumed: value.unitsConsumed === undefined ? null : Number(value.unitsConsumed), logs };
    },

    async sendTransaction(wire) {
      // Simulated just before by the caller: no second preflight.
      const signature = await call('sendTransaction', () =>
        rpc.sendTransaction(toBase64(wire), { encoding: 'base64', skipPreflight: true, preflightCommitment: commitment, maxRetries: 5n }).send(),
      );
      return { signature };
    },

    async submitTransaction(wire) {
      const simulation = await chain.simulateTransaction(wire);
      if (!simulation.ok) return { ok: false, error: simulation.error, logs: simulation.logs };
      return { ok: true, signature: (await chain.sendTransaction(wire)).signature };
    },

    async getSignatureStatuses(signatures) {
      const { value } = await call('getSignatureStatuses', () => rpc.getSignatureStatuses(signatures as Signature[]).send());
      return value.map((entry): SignatureStatus | null => {
        if (!entry) return null;
        if (entry.err) return { status: 'FAILED', error: errorText(entry.err) };
        return { status: entry.confirmationStatus === 'finalized' ? 'FINALIZED' : entry.confirmationStatus === 'confirmed' ? 'CONFIRMED' : 'PROCESSED' };
      });
    },
  };
  return chain;
}
