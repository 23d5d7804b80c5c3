/**
 * The merchant's wallet ownership policy at PAYIN creation (issue 30, docs/architecture/
 * compliance-policies.md): tokens go to a self-hosted wallet not proven the receiver's (a signed
 * challenge, modules/wallet-ownership/) only as far as the policy allows. A managed wallet counts
 * as proven. Whether the wallet is proven is read with the creation context (creation-repo.ts).
 */
import { AppError } from '../../../errors.ts';
import { decimal, toJsonNumber } from '../../../lib/money.ts';
import type { WalletOwnershipPolicy } from '../../merchants/tables.ts';

export interface WalletOwnership {
  policy: WalletOwnershipPolicy;
  /** LIMITED: the most BRL the merchant's PAYINs to one unproven wallet may total in a São Paulo day (NUMERIC text). */
  capBrl: string | null;
  proven: boolean;
  /** LIMITED, unproven: what the day's PAYINs to this wallet already reserved (NUMERIC text; '0' otherwise). */
  usedTodayBrl: string;
}

/**
 * Whether the order counts against the day's cap of its wallet: LIMITED and not proven. The cap
 * is per day and wallet, not per order (issue 38 item 7): ten orders just under a per-order cap
 * would otherwise move ten times it to a wallet nobody proved.
 */
export const countsAgainstUnprovenCap = (ownership: Pick<WalletOwnership, 'policy' | 'capBrl' | 'proven'>): ownership is Pick<WalletOwnership, 'policy' | 'proven'> & { capBrl: string } =>
  !ownership.proven && ownership.policy === 'LIMITED' && ownership.capBrl !== null;

/** 422 WALLET_OWNERSHIP_REQUIRED for a PAYIN that would take the wallet's day past the LIMITED cap. */
export function unprovenCapExceeded(capBrl: string, usedTodayBrl: string): AppError {
  return new AppError(
    'WALLET_OWNERSHIP_REQUIRED',
    `The destination wallet is not proven to be the receiver's, and the merchant allows PAYINs to an unproven wallet only up to ${decimal(capBrl).toFixed(2)} BRL a day (São Paulo time), ${decimal(usedTodayBrl).toFixed(2)} BRL of it used today: ${HOW_TO_PROVE}`,
    { 'body.destinationWallet': "is not proven to be the receiver's", walletOwnershipPolicy: 'LIMITED', unprovenWalletLimitBrl: toJsonNumber(capBrl), unprovenWalletUsedTodayBrl: toJsonNumber(usedTodayBrl) },
  );
}

const HOW_TO_PROVE =
  "prove the wallet is the receiver's: POST /receivers/{id}/wallet-ownership/challenges with the walletAddress, sign the message with the wallet, then POST /receivers/{id}/wallet-ownership/proofs with the challengeId and the signature (base58); or use the receiver's managed wallet";

/**
 * Throws 422 WALLET_OWNERSHIP_REQUIRED when the policy refuses this PAYIN of `amountBrl` to its
 * wallet. The early check, on the day's usage as read; the creation transaction's reservation
 * (unproven-wallet-usage.ts) decides under concurrency.
 */
export function checkWalletOwnership(ownership: WalletOwnership, amountBrl: string): void {
  if (ownership.proven || ownership.policy === 'ALLOW') return;
  if (ownership.policy === 'LIMITED' && ownership.capBrl !== null) {
    if (decimal(ownership.usedTodayBrl).plus(amountBrl).lte(ownership.capBrl)) return;
    throw unprovenCapExceeded(ownership.capBrl, ownership.usedTodayBrl);
  }
  throw new AppError('WALLET_OWNERSHIP_REQUIRED', `The merchant accepts PAYINs only to a wallet proven to be the receiver's: ${HOW_TO_PROVE}`, {
    'body.destinationWallet': "is not proven to be the receiver's",
    walletOwnershipPolicy: 'REQUIRED',
  });
}
