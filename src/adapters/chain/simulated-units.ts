/**
 * The compute-unit limit a transaction asks for: what it consumed in `simulateTransaction`
 * (signatures not checked, blockhash replaced) plus a margin, within a cap. The priority fee is
 * paid per unit asked, not used, and the configured budget asked several times what a transfer
 * uses. A simulation that fails or does not answer tells nothing: the caller keeps its cap, and
 * the chain judges the transaction as before. Used by a single transfer (solana-transfers.ts)
 * and a batch (solana-batch.ts).
 */
import { type compileTransaction, getBase64EncodedWireTransaction } from '@solana/kit';
import type { SolanaRpc } from './solana-mints.ts';

type RpcCall = <T>(method: string, run: (abortSignal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * Units asked above what simulation consumed: a receiver's token account created by someone else
 * between simulation and landing makes its idempotent create cheaper, never dearer, so a small
 * margin covers the rest (the runtime's own variations between versions).
 */
const UNIT_MARGIN = 1.15;
const UNIT_HEADROOM = 1_000;

export function createUnitSizer(deps: { rpc: SolanaRpc; rpcCall: RpcCall }) {
  const { rpc, rpcCall } = deps;
  /** Units consumed in simulation with the margin, at most `cap`; undefined when the node cannot tell. */
  return async function simulatedUnits(compiled: ReturnType<typeof compileTransaction>, cap: number): Promise<number | undefined> {
    try {
      const { value } = await rpcCall('simulateTransaction', (abortSignal) =>
        rpc.simulateTransaction(getBase64EncodedWireTransaction(compiled), { encoding: 'base64', sigVerify: false, replaceRecentBlockhash: true, commitment: 'confirmed' }).send({ abortSignal }),
      );
      if (value.err !== null || value.unitsConsumed === undefined || value.unitsConsumed === 0n) return undefined;
      return Math.min(cap, Math.ceil(Number(value.unitsConsumed) * UNIT_MARGIN) + UNIT_HEADROOM);
    } catch {
      return undefined;
    }
  };
}
