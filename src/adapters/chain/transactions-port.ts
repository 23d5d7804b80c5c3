/**
 * The transaction side of the chain port, for managed wallets: what a relayer needs from a
 * Solana node (DOMAIN.md, Solana). Transactions travel as wire bytes; signatures and blockhashes
 * as base58 text. Implemented by the JSON-RPC adapter (SOLANA_RPC_URL) and the LiteSVM sandbox.
 */

export type SimulationResult =
  | { ok: true; unitsConsumed: number | null; logs: string[] }
  | { ok: false; error: string; logs: string[] };

/** What submitTransaction answers: sent, or refused with the chain's error and logs (nothing landed at the fee payer's expense). */
export type SubmitResult = { ok: true; signature: string } | { ok: false; error: string; logs: string[] };

export interface SignatureStatus {
  /** PROCESSED, CONFIRMED and FINALIZED as Solana's commitment levels; FAILED when it landed with an error. */
  status: 'PROCESSED' | 'CONFIRMED' | 'FINALIZED' | 'FAILED';
  error?: string;
}

export interface TransactionChain {
  readonly kind: 'solana-rpc' | 'litesvm';
  getLatestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }>;
  /** Runs the transaction without committing it, signatures verified. */
  simulateTransaction(wire: Uint8Array): Promise<SimulationResult>;
  /** Submits the transaction; answers its first signature (base58). Throws when the node refuses it. */
  sendTransaction(wire: Uint8Array): Promise<{ signature: string }>;
  /**
   * Sends the transaction only if it succeeds: a failure answers its error and logs instead (the
   * caller refuses with SIMULATION_FAILED) and costs the fee payer nothing. A node simulates, then
   * sends; the sandbox executes once (litesvm-sandbox.ts). Throws ChainUnavailableError when the
   * chain cannot be reached or refuses the send itself.
   */
  submitTransaction(wire: Uint8Array): Promise<SubmitResult>;
  /** One entry per signature, null when the node does not know it. */
  getSignatureStatuses(signatures: string[]): Promise<Array<SignatureStatus | null>>;
}

/** The node could not be reached or answered an error: the caller answers 503, never a 500. */
export class ChainUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainUnavailableError';
  }
}
