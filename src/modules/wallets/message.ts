/**
 * The message as the rules read it: a flat view of a compiled legacy or v0 message with the
 * static keys resolved to addresses. Decoding (transaction.ts), the rewrite (sponsor.ts) and the
 * rules (inspect.ts) all build on it, which is why it lives apart from each of them.
 */
import type { CompiledTransactionMessage } from '@solana/kit';
import { type Rejection, reject } from './rejection.ts';

/** The versions the rules can read (rule 1): others are refused at decoding. */
export type ReadableMessage = Extract<CompiledTransactionMessage, { version: 'legacy' | 0 }>;

export interface MessageView {
  version: ReadableMessage['version'];
  numSigners: number;
  numReadonlySigners: number;
  numReadonlyNonSigners: number;
  staticAccounts: string[];
  /** Address lookup tables the message loads (v0); their entries are not resolved. */
  lookupTableCount: number;
  instructions: InstructionView[];
}

export interface InstructionView {
  programAddress: string;
  /** Addresses of the instruction's accounts; an entry from a lookup table reads `lookup-table:<index>`. */
  accounts: string[];
  /** Indexes into staticAccounts (or beyond, for lookup-table entries), as in the message. */
  accountIndices: number[];
  data: Uint8Array;
}

/** Rule 1, first half: only the versions of ReadableMessage are accepted. */
export function checkVersion(view: { version: number | 'legacy' }): Rejection | null {
  if (view.version === 'legacy' || view.version === 0) return null;
  return reject('UNSUPPORTED_VERSION', `transaction message version ${String(view.version)} is not accepted; send a legacy or v0 message`, {
    version: view.version,
  });
}

export function viewOf(compiled: ReadableMessage): MessageView {
  const lookups = 'addressTableLookups' in compiled ? (compiled.addressTableLookups ?? []) : [];
  const staticAccounts = compiled.staticAccounts.map(String);
  const resolve = (index: number) => staticAccounts[index] ?? `lookup-table:${index}`;
  return {
    version: compiled.version,
    numSigners: compiled.header.numSignerAccounts,
    numReadonlySigners: compiled.header.numReadonlySignerAccounts,
    numReadonlyNonSigners: compiled.header.numReadonlyNonSignerAccounts,
    staticAccounts,
    lookupTableCount: lookups.length,
    instructions: compiled.instructions.map((instruction) => ({
      programAddress: resolve(instruction.programAddressIndex),
      accounts: (instruction.accountIndices ?? []).map(resolve),
      accountIndices: [...(instruction.accountIndices ?? [])],
      data: new Uint8Array(instruction.data ?? []),
    })),
  };
}
