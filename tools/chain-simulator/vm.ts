/**
 * The simulator's one LiteSVM (litesvm 1.4.1, pinned): loaded once, with its native object (it
 * takes wire bytes as they are) and the error enums by name, so a failure is answered in the
 * JSON shape a Solana node gives (`"BlockhashNotFound"`, `{"InstructionError":[0,{"Custom":1}]}`).
 * The loading and the Memo trick are those of src/adapters/chain/litesvm-sandbox.ts.
 */
import { createRequire } from 'node:module';
import type { Address } from '@solana/kit';
import type { FailedTransactionMetadata, LiteSVM, SlotHash, TransactionMetadata } from 'litesvm';

export interface NativeAccount {
  lamports(): bigint;
  data(): Uint8Array;
  owner(): Uint8Array;
  executable(): boolean;
  rentEpoch(): bigint;
}

export interface NativeSimulation {
  meta(): TransactionMetadata;
  postAccounts(): Array<{ address: Uint8Array; account(): NativeAccount }>;
}

/** The native object under LiteSVM's wrapper. */
export interface NativeVm {
  sendLegacyTransaction(wire: Uint8Array): TransactionMetadata | FailedTransactionMetadata;
  sendVersionedTransaction(wire: Uint8Array): TransactionMetadata | FailedTransactionMetadata;
  simulateLegacyTransaction(wire: Uint8Array): NativeSimulation | FailedTransactionMetadata;
  simulateVersionedTransaction(wire: Uint8Array): NativeSimulation | FailedTransactionMetadata;
  getBalance(address: Uint8Array): bigint | null;
  getAccount(address: Uint8Array): NativeAccount | null;
  setAccount(address: Uint8Array, account: NativeAccount): void;
  setSigverify(on: boolean): void;
  expireBlockhash(): void;
  latestBlockhash(): string;
  warpToSlot(slot: bigint): void;
  minimumBalanceForRentExemption(dataLen: bigint): bigint;
  getProgramAccounts(programId: Uint8Array): Array<{ address: Uint8Array; account(): NativeAccount }>;
  getSlotHashes(): SlotHash[];
  setSlotHashes(hashes: SlotHash[]): void;
}

export interface Vm {
  svm: LiteSVM;
  native: NativeVm;
  /** A native account, as setAccount takes it. */
  account(lamports: bigint, data: Uint8Array, owner: Uint8Array, executable?: boolean): NativeAccount;
  isFailure(result: unknown): result is FailedTransactionMetadata;
  /** The error as a node's JSON answers it (TransactionError's serde form). */
  errorJson(failed: FailedTransactionMetadata): unknown;
}

/** `@solana-program/memo` 0.15's default program id; LiteSVM 1.4.1 loads only the classic ones. */
const CURRENT_MEMO_PROGRAM = 'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH' as Address;
const CLASSIC_MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address;

const namesOf = (enumObject: Record<string, number | string>) =>
  new Map<number, string>(
    Object.entries(enumObject)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([name, code]) => [code, name]),
  );

export async function createVm(): Promise<Vm> {
  const { LiteSVM, FailedTransactionMetadata } = await import('litesvm');
  const internal = createRequire(import.meta.url)('litesvm/dist/internal.js') as {
    TransactionErrorFieldless: Record<string, number | string>;
    InstructionErrorFieldless: Record<string, number | string>;
    Account: new (lamports: bigint, data: Uint8Array, owner: Uint8Array, executable: boolean, rentEpoch: bigint) => NativeAccount;
  };
  const transactionErrors = namesOf(internal.TransactionErrorFieldless);
  const instructionErrors = namesOf(internal.InstructionErrorFieldless);

  // A cluster accepts any of its last 150 blockhashes and LiteSVM only its latest: the chain
  // (chain.ts) keeps that window itself, so LiteSVM's own check is off.
  const svm = new LiteSVM().withBlockhashCheck(false);
  const classic = svm.getAccount(CLASSIC_MEMO_PROGRAM);
  if (!classic.exists) throw new Error('chain simulator: LiteSVM has no classic Memo program');
  svm.addProgram(CURRENT_MEMO_PROGRAM, new Uint8Array(classic.data));
  const native = (svm as unknown as { inner: NativeVm }).inner;

  const instructionErrorJson = (err: unknown): unknown => {
    if (typeof err === 'number') return instructionErrors.get(err) ?? `InstructionError${err}`;
    const value = err as { code?: number; msg?: string };
    if (typeof value.code === 'number') return { Custom: value.code };
    return 'BorshIoError';
  };

  return {
    svm,
    native,
    account: (lamports, data, owner, executable = false) => new internal.Account(lamports, data, owner, executable, 18446744073709551615n),
    isFailure: (result): result is FailedTransactionMetadata => result instanceof FailedTransactionMetadata,
    errorJson(failed) {
      const err = failed.err() as unknown;
      if (typeof err === 'number') return transactionErrors.get(err) ?? `TransactionError${err}`;
      const value = err as { constructor: { name: string }; index?: number; accountIndex?: number; err?: () => unknown };
      const kind = value.constructor.name;
      if (typeof value.err === 'function') return { InstructionError: [value.index, instructionErrorJson(value.err())] };
      if (kind.endsWith('DuplicateInstruction')) return { DuplicateInstruction: value.index };
      if (kind.endsWith('InsufficientFundsForRent')) return { InsufficientFundsForRent: { account_index: value.accountIndex } };
      if (kind.endsWith('ProgramExecutionTemporarilyRestricted')) return { ProgramExecutionTemporarilyRestricted: { account_index: value.accountIndex } };
      return String(err);
    },
  };
}

const INSTRUCTION_ERROR_TEXT: Record<string, string> = {
  InsufficientFunds: 'insufficient funds for instruction',
  InvalidAccountData: 'invalid account data for instruction',
  InvalidInstructionData: 'invalid instruction data',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  IncorrectProgramId: 'incorrect program id for instruction',
  InvalidAccountOwner: 'Invalid account owner',
  IllegalOwner: 'Provided owner is not allowed',
};
const TRANSACTION_ERROR_TEXT: Record<string, string> = {
  BlockhashNotFound: 'Blockhash not found',
  AlreadyProcessed: 'This transaction has already been processed',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  SignatureFailure: 'Transaction did not pass signature verification',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
};

/** The node's text for an error, as its preflight refusal reads ("Transaction simulation failed: ..."). */
export function errorText(err: unknown): string {
  if (typeof err === 'string') return TRANSACTION_ERROR_TEXT[err] ?? err;
  const value = err as { InstructionError?: [number, unknown]; InsufficientFundsForRent?: { account_index: number } };
  if (value.InstructionError) {
    const [index, inner] = value.InstructionError;
    const custom = (inner as { Custom?: number }).Custom;
    const text = typeof custom === 'number' ? `custom program error: 0x${custom.toString(16)}` : (INSTRUCTION_ERROR_TEXT[String(inner)] ?? String(inner));
    return `Error processing Instruction ${index}: ${text}`;
  }
  if (value.InsufficientFundsForRent) return `Transaction results in an account (${value.InsufficientFundsForRent.account_index}) with insufficient funds for rent`;
  return JSON.stringify(err);
}
