/**
 * The refusal rules of sponsored signing (issue 6, DOMAIN.md "Fee sponsorship"): pure functions
 * over a decoded message, each answering a Rejection with a precise reason code and message, or
 * null. The platform pays the fee, so every request is treated as an attempt on the sponsor's
 * lamports until these pass. Rules over the caller's message run before the rewrite; the fee, the
 * final signer set and the size are checked again on the rewritten message.
 */
import { checkVersion, type InstructionView, type MessageView } from './message.ts';
import { type Rejection, reject } from './rejection.ts';
import type { InspectionSettings } from './settings.ts';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

/** Solana's packet limit for a serialized transaction (signatures included). */
export const MAX_TRANSACTION_BYTES = 1232;
export const LAMPORTS_PER_SIGNATURE = 5000;
/** The runtime's default compute-unit limit per non-Compute-Budget instruction, and its ceiling. */
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000;
const MAX_UNITS = 1_400_000;

export interface InspectionContext {
  /** The managed wallet's address. */
  managed: string;
  /** The platform's fee payer. */
  sponsor: string;
  settings: InspectionSettings;
}

const PROGRAM_NAMES: Record<string, string> = {
  [SYSTEM_PROGRAM]: 'System',
  [COMPUTE_BUDGET_PROGRAM]: 'Compute Budget',
  [TOKEN_PROGRAM]: 'SPL Token',
  [TOKEN_2022_PROGRAM]: 'Token-2022',
  [ATA_PROGRAM]: 'Associated Token Account',
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: 'Memo',
  Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo: 'Memo (v1)',
};
const SYSTEM_INSTRUCTIONS = [
  'CreateAccount', 'Assign', 'Transfer', 'CreateAccountWithSeed', 'AdvanceNonceAccount', 'WithdrawNonceAccount', 'InitializeNonceAccount',
  'AuthorizeNonceAccount', 'Allocate', 'AllocateWithSeed', 'AssignWithSeed', 'TransferWithSeed', 'UpgradeNonceAccount',
];
const TOKEN_INSTRUCTIONS: Record<number, string> = {
  0: 'InitializeMint', 1: 'InitializeAccount', 2: 'InitializeMultisig', 3: 'Transfer', 4: 'Approve', 5: 'Revoke', 6: 'SetAuthority', 7: 'MintTo',
  8: 'Burn', 9: 'CloseAccount', 10: 'FreezeAccount', 11: 'ThawAccount', 12: 'TransferChecked', 13: 'ApproveChecked', 14: 'MintToChecked',
  15: 'BurnChecked', 16: 'InitializeAccount2', 17: 'SyncNative', 18: 'InitializeAccount3', 20: 'InitializeMint2',
};
const ATA_INSTRUCTIONS = ['Create', 'CreateIdempotent', 'RecoverNested'];

/** The System program's instruction index (u32, little-endian), or undefined if the data is too short. */
const systemInstruction = (data: Uint8Array): number | undefined =>
  data.length >= 4 ? new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true) : undefined;

/** "System Transfer", "SPL Token TransferChecked", "Associated Token Account Create", or the program id. */
export function describeInstruction(instruction: InstructionView): string {
  const program = PROGRAM_NAMES[instruction.programAddress];
  if (!program) return `program ${instruction.programAddress}`;
  const { data } = instruction;
  let name: string | undefined;
  if (instruction.programAddress === SYSTEM_PROGRAM) name = SYSTEM_INSTRUCTIONS[systemInstruction(data) ?? -1];
  else if (instruction.programAddress === TOKEN_PROGRAM || instruction.programAddress === TOKEN_2022_PROGRAM) name = TOKEN_INSTRUCTIONS[data[0] ?? -1];
  else if (instruction.programAddress === ATA_PROGRAM) name = ATA_INSTRUCTIONS[data.length === 0 ? 0 : data[0]!];
  return name ? `${program} ${name}` : program;
}

// ---- Rule 1: address lookup tables (the version half is message.ts's checkVersion) ------------

export function checkLookupTables(view: MessageView): Rejection | null {
  if (view.lookupTableCount === 0) return null;
  return reject(
    'ADDRESS_LOOKUP_TABLES',
    'address lookup tables are not accepted: their accounts cannot be checked before signing; list every account as a static key',
    { lookupTables: view.lookupTableCount },
  );
}

// ---- Rule 3: the sponsor only as fee payer ----------------------------------------------------

export function checkSponsorUse(view: MessageView, sponsor: string): Rejection | null {
  for (const [index, instruction] of view.instructions.entries()) {
    const what = describeInstruction(instruction);
    if (instruction.programAddress === sponsor) {
      return reject('SPONSOR_AS_PROGRAM', `instruction ${index} invokes the platform's fee payer as its program`, { instructionIndex: index });
    }
    const position = instruction.accounts.indexOf(sponsor);
    if (position === -1) continue;
    const details = { instructionIndex: index, instruction: what, accountPosition: position };
    const system = instruction.programAddress === SYSTEM_PROGRAM ? SYSTEM_INSTRUCTIONS[systemInstruction(instruction.data) ?? -1] : undefined;
    if ((system === 'Transfer' || system === 'TransferWithSeed') && position === 0) {
      return reject('SPONSOR_TRANSFER', `instruction ${index} (${what}) would transfer lamports out of the platform's fee payer`, details);
    }
    if ((system === 'CreateAccount' || system === 'CreateAccountWithSeed') && position === 0) {
      return reject('SPONSOR_FUNDS_ACCOUNT', `instruction ${index} (${what}) would fund a new account from the platform's fee payer`, details);
    }
    if (instruction.programAddress === ATA_PROGRAM && position === 0) {
      return reject('SPONSOR_PAYS_RENT', `instruction ${index} (${what}) would pay a token account's rent from the platform's fee payer`, details);
    }
    return reject(
      'SPONSOR_IN_INSTRUCTION',
      `instruction ${index} (${what}) uses the platform's fee payer as account ${position}; the fee payer may only pay the fee`,
      details,
    );
  }
  const extra = view.staticAccounts.indexOf(sponsor, 1);
  if (extra !== -1) {
    return reject('SPONSOR_NOT_FEE_PAYER', `the platform's fee payer appears as account ${extra}; it may only be the fee payer (account 0)`, {
      accountIndex: extra,
    });
  }
  return null;
}

// ---- Rule 2: required signers ---------------------------------------------------------------

export function checkSigners(view: MessageView, ctx: Pick<InspectionContext, 'managed' | 'sponsor'>): Rejection | null {
  const signers = view.staticAccounts.slice(0, view.numSigners);
  const foreign = signers.filter((signer) => signer !== ctx.managed && signer !== ctx.sponsor);
  if (foreign.length > 0) {
    return reject(
      'FOREIGN_SIGNER',
      `the transaction requires signatures from ${foreign.join(', ')}; only the managed wallet ${ctx.managed} may sign besides the platform's fee payer (other signatures would break when the fee payer and blockhash are replaced)`,
      { signers: foreign },
    );
  }
  return checkManagedSigner(view, ctx.managed);
}

export function checkManagedSigner(view: MessageView, managed: string): Rejection | null {
  if (view.staticAccounts.slice(0, view.numSigners).includes(managed)) return null;
  return reject('MANAGED_KEY_NOT_SIGNER', `the managed wallet ${managed} is not a required signer of this transaction`, { managedAddress: managed });
}

// ---- Rule 5: durable nonces -----------------------------------------------------------------

export function checkDurableNonce(view: MessageView): Rejection | null {
  const index = view.instructions.findIndex((ix) => ix.programAddress === SYSTEM_PROGRAM && systemInstruction(ix.data) === 4);
  if (index === -1) return null;
  return reject('DURABLE_NONCE', `instruction ${index} (System AdvanceNonceAccount) makes a durable-nonce transaction; only recent-blockhash transactions are sponsored`, {
    instructionIndex: index,
  });
}

// ---- Rule 4: programs -----------------------------------------------------------------------

export function checkPrograms(view: MessageView, settings: InspectionSettings): Rejection | null {
  const allowed = new Set(settings.allowedPrograms);
  for (const [index, instruction] of view.instructions.entries()) {
    if (!allowed.has(instruction.programAddress)) {
      return reject('PROGRAM_NOT_ALLOWED', `instruction ${index} calls program ${instruction.programAddress}, which is not in the allow-list`, {
        instructionIndex: index,
        programId: instruction.programAddress,
      });
    }
  }
  if (view.instructions.length > settings.maxInstructions) {
    return reject('TOO_MANY_INSTRUCTIONS', `the transaction has ${view.instructions.length} instructions; at most ${settings.maxInstructions} are sponsored`, {
      instructions: view.instructions.length,
      max: settings.maxInstructions,
    });
  }
  if (!view.instructions.some((ix) => ix.programAddress !== COMPUTE_BUDGET_PROGRAM)) {
    return reject('NO_INSTRUCTIONS', 'the transaction has no instruction besides Compute Budget ones: there is nothing to sponsor');
  }
  return null;
}

// ---- Rule 6: compute budget and fee ---------------------------------------------------------

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
  const seen = new Set<number>();
  for (const [index, instruction] of view.instructions.entries()) {
    if (instruction.programAddress !== COMPUTE_BUDGET_PROGRAM) continue;
    const { data } = instruction;
    const kind = data[0];
    const expectedLength: Record<number, number> = { 1: 5, 2: 5, 3: 9, 4: 5 };
    if (kind === undefined || expectedLength[kind] !== data.length || instruction.accounts.length > 0) {
      return reject('INVALID_COMPUTE_BUDGET', `instruction ${index} is not a valid Compute Budget instruction`, { instructionIndex: index });
    }
    if (seen.has(kind)) return reject('INVALID_COMPUTE_BUDGET', `instruction ${index} repeats a Compute Budget setting`, { instructionIndex: index });
    seen.add(kind);
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (kind === 2) unitLimit = dv.getUint32(1, true);
    if (kind === 3) unitPrice = dv.getBigUint64(1, true);
  }
  return { unitPrice: unitPrice ?? 0n, unitLimit };
}

export function checkComputeBudget(budget: ComputeBudget, settings: InspectionSettings): Rejection | null {
  if (budget.unitPrice > BigInt(settings.maxComputeUnitPrice)) {
    return reject(
      'COMPUTE_UNIT_PRICE_TOO_HIGH',
      `compute-unit price ${budget.unitPrice} micro-lamports exceeds the cap of ${settings.maxComputeUnitPrice}`,
      { computeUnitPrice: budget.unitPrice.toString(), max: settings.maxComputeUnitPrice },
    );
  }
  if (budget.unitLimit !== undefined && budget.unitLimit > settings.maxComputeUnitLimit) {
    return reject('COMPUTE_UNIT_LIMIT_TOO_HIGH', `compute-unit limit ${budget.unitLimit} exceeds the cap of ${settings.maxComputeUnitLimit}`, {
      computeUnitLimit: budget.unitLimit,
      max: settings.maxComputeUnitLimit,
    });
  }
  return null;
}

/**
 * The fee the fee payer is charged: 5,000 lamports per signature plus the priority fee
 * ceil(price × limit / 10^6), the limit being the requested one or the runtime's default
 * (200,000 per instruction other than Compute Budget, at most 1,400,000). Never an underestimate.
 */
export function feeOf(view: MessageView, budget: ComputeBudget): bigint {
  const instructions = view.instructions.filter((ix) => ix.programAddress !== COMPUTE_BUDGET_PROGRAM).length;
  const limit = BigInt(budget.unitLimit ?? Math.min(MAX_UNITS, DEFAULT_UNITS_PER_INSTRUCTION * instructions));
  const priority = (budget.unitPrice * limit + 999_999n) / 1_000_000n;
  return BigInt(LAMPORTS_PER_SIGNATURE * view.numSigners) + priority;
}

export function checkFee(fee: bigint, settings: InspectionSettings): Rejection | null {
  if (fee <= BigInt(settings.maxFeeLamports)) return null;
  return reject('FEE_TOO_HIGH', `the transaction's fee of ${fee} lamports exceeds the cap of ${settings.maxFeeLamports}`, {
    feeLamports: fee.toString(),
    max: settings.maxFeeLamports,
  });
}

// ---- Rule 7: size ---------------------------------------------------------------------------

export function checkSize(wireLength: number): Rejection | null {
  if (wireLength <= MAX_TRANSACTION_BYTES) return null;
  return reject('TRANSACTION_TOO_LARGE', `the transaction is ${wireLength} bytes with the fee payer's signature; the limit is ${MAX_TRANSACTION_BYTES}`, {
    bytes: wireLength,
    max: MAX_TRANSACTION_BYTES,
  });
}

// ---- Rule 8: simulation ---------------------------------------------------------------------

export function simulationRejection(error: string, logs: string[]): Rejection {
  return reject('SIMULATION_FAILED', `the transaction fails in simulation (${error}); failed transactions still cost the fee payer`, {
    simulationError: error,
    logs: logs.slice(-20),
  });
}

// ---- All rules on the caller's message ------------------------------------------------------

/** Rules 1 to 6 on the message as the caller sent it, in order; the first rejection, or the compute budget. */
export function inspectForSponsoring(view: MessageView, ctx: InspectionContext): Rejection | ComputeBudget {
  const rejection =
    checkVersion(view) ??
    checkLookupTables(view) ??
    checkSponsorUse(view, ctx.sponsor) ??
    checkSigners(view, ctx) ??
    checkDurableNonce(view) ??
    checkPrograms(view, ctx.settings);
  if (rejection) return rejection;
  const budget = readComputeBudget(view);
  if ('reason' in budget) return budget;
  return checkComputeBudget(budget, ctx.settings) ?? budget;
}

export const isRejection = (value: Rejection | ComputeBudget): value is Rejection => 'reason' in value;
