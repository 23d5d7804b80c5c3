/**
 * The treasury's rules as pure functions (docs/architecture/treasury.md): drift, low balance,
 * what the treasury can still cover, and the PAYIN refusal when it cannot.
 */
import { AppError } from '../../errors.ts';
import { type Dec, decimal } from '../../lib/money.ts';

export const SOL = 'SOL';

/** on-chain − ledger: positive when the chain holds more than the books say (an unrecorded funding), negative when less. */
export function driftOf(onChain: string, ledger: string): string {
  return decimal(onChain).minus(ledger).toString();
}

/**
 * Whether a drift is what transfers in flight explain: a PAYIN's transfer that landed leaves the
 * chain before its COMPLETED debits the ledger, so while `inFlightCount` transfers are in flight
 * the chain may hold up to their tokens less (`inFlightAmount`), and for SOL up to their fees.
 * Anything else (any positive drift, or more missing than in flight) is a real drift.
 */
export function isTransientDrift(currency: string, drift: string, inFlight: { count: number; amount: string }): boolean {
  const value = decimal(drift);
  if (value.isZero()) return true;
  if (value.isPositive() || inFlight.count === 0) return false;
  return currency === SOL || value.negated().lte(inFlight.amount);
}

/** Below the currency's threshold (TREASURY_LOW_BALANCE); false when it has none. */
export function isLowBalance(balance: string, threshold: string | undefined): boolean {
  return threshold !== undefined && decimal(balance).lt(threshold);
}

/** What the treasury can still send: its balance less what open PAYINs owe. */
export function availableAfter(onChain: string, owed: string): Dec {
  return decimal(onChain).minus(owed);
}

export function insufficientLiquidity(token: string): AppError {
  return new AppError('TREASURY_INSUFFICIENT_LIQUIDITY', `The platform's treasury cannot cover this ${token} order now; no PIX charge was created. Retry later.`, { token });
}

/** The refusal of a PAYIN of `amount` tokens when `available` cannot cover it, else null. */
export function liquidityRefusal(token: string, amount: string, available: Dec): AppError | null {
  return available.lt(amount) ? insufficientLiquidity(token) : null;
}
