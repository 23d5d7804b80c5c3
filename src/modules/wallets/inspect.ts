/**
 * The refusal rules of sponsored signing (issue 6, DOMAIN.md "Fee sponsorship"): pure functions
 * over a decoded message, each answering a Rejection with a precise reason code and message, or
 * null. The platform pays the fee, so every request is treated as an attempt on the sponsor's
 * lamports until these pass. Rules over the caller's message run before the rewrite; the fee, the
 * final signer set and the size are checked again on the rewritten message.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { SystemInstruction } from '@solana-program/system';
import { checkComputeBudget, type ComputeBudget, readComputeBudget } from './fee.ts';
import { describeInstruction, systemInstructionOf } from './instructions.ts';
import { checkVersion, type MessageView } from './message.ts';
import { type Rejection, reject } from './rejection.ts';
import type { InspectionSettings } from './settings.ts';

/** Solana's packet limit for a serialized transaction (signatures included). */
export const MAX_TRANSACTION_BYTES = 1232;

export interface InspectionContext {
  /** The managed wallet's address. */
  managed: string;
  /** The platform's fee payer. */
  sponsor: string;
  settings: InspectionSettings;
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
    // Account 0 is the source of a transfer, the funder of a new account, the payer of an ATA.
    const system = systemInstructionOf(instruction);
    if ((system === SystemInstruction.TransferSol || system === SystemInstruction.TransferSolWithSeed) && position === 0) {
      return reject('SPONSOR_TRANSFER', `instruction ${index} (${what}) would transfer lamports out of the platform's fee payer`, details);
    }
    if ((system === SystemInstruction.CreateAccount || system === SystemInstruction.CreateAccountWithSeed) && position === 0) {
      return reject('SPONSOR_FUNDS_ACCOUNT', `instruction ${index} (${what}) would fund a new account from the platform's fee payer`, details);
    }
    if (instruction.programAddress === ASSOCIATED_TOKEN_PROGRAM_ADDRESS && position === 0) {
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
  const index = view.instructions.findIndex((ix) => systemInstructionOf(ix) === SystemInstruction.AdvanceNonceAccount);
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
  if (!view.instructions.some((ix) => ix.programAddress !== COMPUTE_BUDGET_PROGRAM_ADDRESS)) {
    return reject('NO_INSTRUCTIONS', 'the transaction has no instruction besides Compute Budget ones: there is nothing to sponsor');
  }
  return null;
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
  return checkComputeBudget(view, budget, ctx.settings) ?? budget;
}

export const isRejection = (value: Rejection | ComputeBudget): value is Rejection => 'reason' in value;
