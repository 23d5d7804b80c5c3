/**
 * Rule 6: the compute budget the caller asks for and the fee the sponsor would pay for it.
 * Compute Budget instructions are identified and decoded by @solana-program/compute-budget; the
 * caps, the refusal of malformed or repeated settings and the fee bound are ours.
 */
import {
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  ComputeBudgetInstruction,
  getRequestHeapFrameInstructionDataDecoder,
  getSetComputeUnitLimitInstructionDataDecoder,
  getSetComputeUnitPriceInstructionDataDecoder,
  getSetLoadedAccountsDataSizeLimitInstructionDataDecoder,
  MAX_COMPUTE_UNIT_LIMIT,
} from '@solana-program/compute-budget';
import { computeBudgetInstructionOf } from './instructions.ts';
import type { MessageView } from './message.ts';
import { type Rejection, reject } from './rejection.ts';
import type { InspectionSettings } from './settings.ts';

export const LAMPORTS_PER_SIGNATURE = 5000;
/** The runtime's default compute-unit limit per instruction other than Compute Budget. */
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000;

const limitData = getSetComputeUnitLimitInstructionDataDecoder();
const priceData = getSetComputeUnitPriceInstructionDataDecoder();

/**
 * The Compute Budget instructions accepted, with the exact size of their data: the decoders
 * would ignore trailing bytes, and a message whose meaning is ambiguous is not signed. The
 * deprecated RequestUnits is not accepted.
 */
const ACCEPTED_SIZES = new Map<ComputeBudgetInstruction, number>([
  [ComputeBudgetInstruction.RequestHeapFrame, getRequestHeapFrameInstructionDataDecoder().fixedSize],
  [ComputeBudgetInstruction.SetComputeUnitLimit, limitData.fixedSize],
  [ComputeBudgetInstruction.SetComputeUnitPrice, priceData.fixedSize],
  [ComputeBudgetInstruction.SetLoadedAccountsDataSizeLimit, getSetLoadedAccountsDataSizeLimitInstructionDataDecoder().fixedSize],
]);

export interface ComputeBudget {
  /** Micro-lamports per compute unit; 0 when unset. */
  unitPrice: bigint;
  /** The requested limit, or undefined for the runtime's default. */
  unitLimit: number | undefined;
}

/** Reads the Compute Budget instructions; malformed or repeated ones are a rejection. */
export function readComputeBudget(view: MessageView): ComputeBudget | Rejection {
  let unitPrice: bigint | undefined;
  let unitLimit: number | undefined;
  const seen = new Set<ComputeBudgetInstruction>();
  for (const [index, instruction] of view.instructions.entries()) {
    if (instruction.programAddress !== COMPUTE_BUDGET_PROGRAM_ADDRESS) continue;
    const kind = computeBudgetInstructionOf(instruction);
    const size = kind === undefined ? undefined : ACCEPTED_SIZES.get(kind);
    if (kind === undefined || size !== instruction.data.length || instruction.accounts.length > 0) {
      return reject('INVALID_COMPUTE_BUDGET', `instruction ${index} is not a valid Compute Budget instruction`, { instructionIndex: index });
    }
    if (seen.has(kind)) return reject('INVALID_COMPUTE_BUDGET', `instruction ${index} repeats a Compute Budget setting`, { instructionIndex: index });
    seen.add(kind);
    if (kind === ComputeBudgetInstruction.SetComputeUnitLimit) unitLimit = limitData.decode(instruction.data).units;
    if (kind === ComputeBudgetInstruction.SetComputeUnitPrice) unitPrice = priceData.decode(instruction.data).microLamports;
  }
  return { unitPrice: unitPrice ?? 0n, unitLimit };
}

/**
 * The compute-unit limit the fee is charged on: the requested one, or the runtime's default
 * (200,000 per instruction other than Compute Budget, at most 1,400,000).
 */
export function computeUnitLimitOf(view: MessageView, budget: ComputeBudget): number {
  if (budget.unitLimit !== undefined) return budget.unitLimit;
  const instructions = view.instructions.filter((ix) => ix.programAddress !== COMPUTE_BUDGET_PROGRAM_ADDRESS).length;
  return Math.min(MAX_COMPUTE_UNIT_LIMIT, DEFAULT_UNITS_PER_INSTRUCTION * instructions);
}

/**
 * The caps on the priority fee's two factors. The limit cap also holds for the runtime's default
 * limit once a price is set (a priced transaction without SetComputeUnitLimit would otherwise pay
 * the price on up to 1,400,000 units); unpriced, the limit costs nothing and is not capped.
 */
export function checkComputeBudget(view: MessageView, budget: ComputeBudget, settings: InspectionSettings): Rejection | null {
  if (budget.unitPrice > BigInt(settings.maxComputeUnitPrice)) {
    return reject(
      'COMPUTE_UNIT_PRICE_TOO_HIGH',
      `compute-unit price ${budget.unitPrice} micro-lamports exceeds the cap of ${settings.maxComputeUnitPrice} (WALLET_MAX_CU_PRICE_MICROLAMPORTS)`,
      { computeUnitPrice: budget.unitPrice.toString(), max: settings.maxComputeUnitPrice },
    );
  }
  const limit = computeUnitLimitOf(view, budget);
  if (limit > settings.maxComputeUnitLimit && (budget.unitLimit !== undefined || budget.unitPrice > 0n)) {
    const which = budget.unitLimit === undefined ? `the default compute-unit limit ${limit} (200,000 per instruction; set SetComputeUnitLimit)` : `compute-unit limit ${limit}`;
    return reject('COMPUTE_UNIT_LIMIT_TOO_HIGH', `${which} exceeds the cap of ${settings.maxComputeUnitLimit} (WALLET_MAX_CU_LIMIT)`, {
      computeUnitLimit: limit,
      max: settings.maxComputeUnitLimit,
    });
  }
  return null;
}

/**
 * The fee the fee payer is charged: 5,000 lamports per signature plus the priority fee
 * ceil(price × limit / 10^6) on the limit of computeUnitLimitOf (the runtime charges the
 * priority fee on the requested limit, not on the units used). Never an underestimate.
 */
export function feeOf(view: MessageView, budget: ComputeBudget): bigint {
  const limit = BigInt(computeUnitLimitOf(view, budget));
  const priority = (budget.unitPrice * limit + 999_999n) / 1_000_000n;
  return BigInt(LAMPORTS_PER_SIGNATURE * view.numSigners) + priority;
}

export function checkFee(fee: bigint, settings: InspectionSettings): Rejection | null {
  if (fee <= BigInt(settings.maxFeeLamports)) return null;
  return reject('FEE_TOO_HIGH', `the transaction's fee of ${fee} lamports exceeds the cap of ${settings.maxFeeLamports} (WALLET_MAX_FEE_LAMPORTS)`, {
    feeLamports: fee.toString(),
    max: settings.maxFeeLamports,
  });
}
