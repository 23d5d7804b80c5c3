/**
 * The merchant's wallet ownership policy at PAYIN creation (issue 30, docs/architecture/
 * compliance-policies.md): tokens go to a self-hosted wallet not proven the receiver's (a signed
 * challenge, modules/wallet-ownership/) only as far as the policy allows. A managed wallet counts
 * as proven. Whether the wallet is proven is read with the creation context (creation-repo.ts).
 */
import { AppError } from '../../errors.ts';
import { decimal, toJsonNumber } from '../../lib/money.ts';
import type { WalletOwnershipPolicy } from '../merchants/tables.ts';

export interface WalletOwnership {
  policy: WalletOwnershipPolicy;
  /** LIMITED: the most BRL one PAYIN to an unproven wallet may be (NUMERIC text). */
  capBrl: string | null;
  proven: boolean;
}

const HOW_TO_PROVE =
  "prove the wallet is the receiver's: POST /receivers/{id}/wallet-ownership/challenges with the walletAddress, sign the message with the wallet, then POST /receivers/{id}/wallet-ownership/proofs with the challengeId and the signature (base58); or use the receiver's managed wallet";

/** Throws 422 WALLET_OWNERSHIP_REQUIRED when the policy refuses this PAYIN of `amountBrl` to its wallet. */
export function checkWalletOwnership(ownership: WalletOwnership, amountBrl: string): void {
  if (ownership.proven || ownership.policy === 'ALLOW') return;
  if (ownership.policy === 'LIMITED' && ownership.capBrl !== null) {
    if (decimal(amountBrl).lte(ownership.capBrl)) return;
    throw new AppError(
      'WALLET_OWNERSHIP_REQUIRED',
      `The destination wallet is not proven to be the receiver's, and the merchant allows PAYINs to an unproven wallet only up to ${decimal(ownership.capBrl).toFixed(2)} BRL: ${HOW_TO_PROVE}`,
      { 'body.destinationWallet': "is not proven to be the receiver's", walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: toJsonNumber(ownership.capBrl) },
    );
  }
  throw new AppError('WALLET_OWNERSHIP_REQUIRED', `The merchant accepts PAYINs only to a wallet proven to be the receiver's: ${HOW_TO_PROVE}`, {
    'body.destinationWallet': "is not proven to be the receiver's",
    walletOwnershipPolicy: 'REQUIRED',
  });
}
