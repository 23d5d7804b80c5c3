/**
 * What the deposit sweeps ask of a chain (docs/architecture/chain.md, "Sweeps"): a transaction
 * that moves a credited deposit from its address's token account to the treasury's, paid by the
 * sponsor and signed also by the address's own key, prepared (signed, nothing sent), sent again as
 * the same bytes, and its status by the same rule as the PAYIN transfers (port.ts).
 */
import type { PreparedTransfer, TransferState } from './port.ts';

/** A key that signs a message: the deposit address's sealed key, opened for one sweep. */
export interface MessageSigner {
  readonly address: string;
  sign(message: Uint8Array): Uint8Array;
}

export interface SweepIntent {
  /** The token's symbol (CHAIN_TOKEN_MINTS). */
  token: string;
  /** The deposit address's key: the owner of the token account swept. */
  owner: MessageSigner;
  /** What the books credited to the treasury, decimal text in token units. */
  amount: string;
  /**
   * Never close the token account, even emptied: a standing address's (decision 0049), which
   * takes deposits at any time (one landing before the sweep would make the close, and so the
   * whole sweep, fail) and whose next sender would pay its rent again.
   */
  keepOpen?: boolean;
}

export interface PreparedSweep extends PreparedTransfer {
  /**
   * The transaction also closes the emptied token account (its rent to the sponsor): it held
   * exactly the credited amount when prepared (and the intent did not ask to keep it open).
   * Anything more stays there, not closed, for an operator.
   */
  closes: boolean;
}

export interface SweepChain {
  /** Signs and sends nothing. ChainTransferRefusedError when the account holds less than `amount` (nothing to sweep). */
  prepareSweep(intent: SweepIntent): Promise<PreparedSweep>;
  sendSweep(prepared: PreparedTransfer): Promise<void>;
  /** As getTransferStatus; costs are the sponsor's: the fee, and rentLamports net of the rent reclaimed (negative when it got more back). */
  getSweepStatus(prepared: PreparedTransfer): Promise<TransferState>;
}
