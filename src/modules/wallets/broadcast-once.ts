/**
 * A broadcast made at most once per Idempotency-Key (docs/architecture/idempotency.md). A
 * broadcast cannot be rolled back, so before it the signed bytes and their hash are recorded
 * with the request's held key (`IdempotentRequest.recordEffect`); a retry whose first request
 * died or failed after that point does not sign again (a new blockhash would make it a second
 * transaction, the fee paid twice): `resume` sends the same bytes again if the chain has not
 * seen them (Solana deduplicates by signature) and answers the same hash. Without a key, `send`
 * is the chain's send and nothing is recorded.
 */
import type { Db } from '../../db/database.ts';
import type { IdempotentRequest, RequestAnswer } from '../../platform/idempotency/claim.ts';
import { ChainUnavailableError, type SubmitResult, type TransactionChain } from '../../adapters/chain/transactions-port.ts';
import { providerUnavailable } from '../../errors.ts';
import { simulationRejection } from './inspect.ts';
import { TransactionRejectedError } from './rejection.ts';
import { decodeBase64, encodeBase64 } from './transaction.ts';

interface RecordedBroadcast {
  /** The signed transaction, base64 wire format. */
  wire: string;
  /** Its first signature (the fee payer's): the transaction's hash. */
  hash: string;
}

export function createBroadcastOnce(deps: { db: Db; chain: Pick<TransactionChain, 'submitTransaction' | 'getSignatureStatuses'> }) {
  const { db, chain } = deps;
  return {
    /** Records the bytes for a retry, then submits them (sent only if they succeed). */
    async submit(claim: IdempotentRequest | undefined, wire: Uint8Array, hash: string): Promise<SubmitResult> {
      await claim?.recordEffect(db, JSON.stringify({ wire: encodeBase64(wire), hash } satisfies RecordedBroadcast));
      return chain.submitTransaction(wire);
    },

    /** A retry's answer after a recorded broadcast: the same bytes again unless the chain has them, and the same hash. */
    async resume(effect: string): Promise<RequestAnswer> {
      const { wire, hash } = JSON.parse(effect) as RecordedBroadcast;
      try {
        const [status] = await chain.getSignatureStatuses([hash]);
        if (!status) {
          // The first submission failed or never left: the same bytes, refused the same way if they fail.
          const submitted = await chain.submitTransaction(decodeBase64(wire));
          if (!submitted.ok) throw new TransactionRejectedError(simulationRejection(submitted.error, submitted.logs));
        }
      } catch (err) {
        if (!(err instanceof ChainUnavailableError)) throw err;
        throw providerUnavailable('The Solana network could not be reached; retry later (the same transaction is sent again)', err);
      }
      return { status: 200, body: { hash } };
    },
  };
}
