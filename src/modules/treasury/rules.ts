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
 * the chain may hold up to their tokens less (`inFlightAmount`), and for SOL up to what they can
 * have cost (`solPerTransfer` each, maxSolPerTransfer: a bound, so that a SOL shortfall is never
 * hidden merely because some PAYIN is always in flight). Anything else (any positive drift, or
 * more missing than in flight) is a real drift.
 */
export function isTransientDrift(currency: string, drift: string, inFlight: { count: number; amount: string }, solPerTransfer: string): boolean {
  const value = decimal(drift);
  if (value.isZero()) return true;
  if (value.isPositive() || inFlight.count === 0) return false;
  const tolerance = currency === SOL ? decimal(solPerTransfer).times(inFlight.count).plus(inFlight.amount) : decimal(inFlight.amount);
  return value.negated().lte(tolerance);
}

/** The base fee of one signature (a PAYIN transfer has one: the treasury's). */
const LAMPORTS_PER_SIGNATURE = 5000n;
/**
 * The most rent one PAYIN transfer deposits: the receiver's associated token account when it was
 * missing (165 bytes for SPL Token, 170 and more with Token-2022 extensions), bounded at ~300 bytes'.
 */
const MAX_ACCOUNT_RENT_LAMPORTS = 3_000_000n;

/** The most SOL one PAYIN transfer can take from the treasury: its fee at the priority fee's cap, and one account's rent. */
export function maxSolPerTransfer(chain: { computeUnitLimit: number; priorityFeeMaxMicroLamports: number }): string {
  const priority = (BigInt(chain.computeUnitLimit) * BigInt(chain.priorityFeeMaxMicroLamports) + 999_999n) / 1_000_000n;
  return decimal((LAMPORTS_PER_SIGNATURE + priority + MAX_ACCOUNT_RENT_LAMPORTS).toString())
    .dividedBy(decimal(10).pow(9))
    .toFixed(9);
}

/** Rent-exempt lamports per byte of an account (3,480 a byte-year, two years), and the 128 bytes every account is counted for. */
const RENT_LAMPORTS_PER_BYTE = 6_960n;
const ACCOUNT_OVERHEAD_BYTES = 128n;
const LOOKUP_TABLE_HEADER_BYTES = 56n;

/**
 * The most SOL one lookup table extension takes from the treasury (decision 0056): one signature's
 * fee (no priority fee) and the rent of the bytes it adds, the table's header and overhead too
 * when it creates the table.
 */
export function lookupTableExtensionMaxSol(extension: { creates: boolean; addresses: number }): string {
  const bytes = 32n * BigInt(extension.addresses) + (extension.creates ? ACCOUNT_OVERHEAD_BYTES + LOOKUP_TABLE_HEADER_BYTES : 0n);
  return decimal((LAMPORTS_PER_SIGNATURE + RENT_LAMPORTS_PER_BYTE * bytes).toString())
    .dividedBy(decimal(10).pow(9))
    .toFixed(9);
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

/**
 * No balance of the treasury could be read yet (the chain's node down since the process started):
 * whether a PAYIN's tokens can leave is unknown, so none is taken (`details.dependency` as GET
 * /readyz names the node).
 */
export function liquidityUnknown(): AppError {
  return new AppError('PROVIDER_UNAVAILABLE', "The platform's treasury balance is unknown (the chain's RPC node has not answered); no PIX charge was created. Retry later.", {
    dependency: 'chain',
  });
}

/** The refusal of a PAYIN of `amount` tokens when `available` cannot cover it, else null. */
export function liquidityRefusal(token: string, amount: string, available: Dec): AppError | null {
  return available.lt(amount) ? insufficientLiquidity(token) : null;
}
