/**
 * The sandbox chain for managed wallets: LiteSVM (npm `litesvm`, a prebuilt native Solana VM) in
 * this process, so sandbox transactions really execute: System, SPL Token, Token-2022, ATA and
 * Memo programs (the classic ids and the current client's default) are loaded, signatures are verified, fees and balances are real. The module and
 * its native library (~60 MB mapped) are loaded on first use, not at start: most processes never
 * sign in the sandbox. The sponsor is airdropped SANDBOX_SPONSOR_LAMPORTS when the VM starts.
 * State lives in memory: a restart starts a fresh chain.
 */
import { createRequire } from 'node:module';
import { type Address, getBase58Encoder, getTransactionDecoder, type Lamports, type Signature } from '@solana/kit';
import type { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';
import { AppError } from '../../errors.ts';
import { decodeBase58, encodeBase58 } from '../../lib/base58.ts';
import { ChainUnavailableError, type SignatureStatus, type SubmitResult, type TransactionChain } from './transactions-port.ts';

export interface LiteSvmSandbox extends TransactionChain {
  readonly kind: 'litesvm';
  airdrop(address: string, lamports: bigint): Promise<void>;
  getBalance(address: string): Promise<bigint>;
  /** The VM itself, for tests that set up accounts (mints, token accounts). */
  vm(): Promise<LiteSVM>;
}

/** The native object under LiteSVM's wrapper: it takes wire bytes as they are (litesvm 1.4.1, pinned). */
interface NativeVm {
  sendLegacyTransaction(wire: Uint8Array): TransactionMetadata | FailedTransactionMetadata;
  sendVersionedTransaction(wire: Uint8Array): TransactionMetadata | FailedTransactionMetadata;
  getBalance(address: Uint8Array): bigint | null;
  getAccount(address: Uint8Array): NativeAccount | null;
  setAccount(address: Uint8Array, account: NativeAccount): void;
}
interface NativeAccount {
  lamports(): bigint;
  data(): Uint8Array;
  owner(): Uint8Array;
  executable(): boolean;
  rentEpoch(): bigint;
}

const base58Bytes = getBase58Encoder();
const decodeTransaction = (wire: Uint8Array) => getTransactionDecoder().decode(wire);

/** litesvm's runtime, loaded by the first VM. */
interface Runtime {
  LiteSVM: typeof LiteSVM;
  FailedTransactionMetadata: typeof FailedTransactionMetadata;
  Account: new (lamports: bigint, data: Uint8Array, owner: Uint8Array, executable: boolean, rentEpoch: bigint) => NativeAccount;
  /** The native enum of error names (a `const enum` in litesvm's types, a plain object at runtime), code → name. */
  fieldlessNames: Map<number, string>;
}
let runtime: Runtime | undefined;

async function loadRuntime(): Promise<Runtime> {
  if (runtime) return runtime;
  const { LiteSVM, FailedTransactionMetadata } = await import('litesvm');
  const internal = createRequire(import.meta.url)('litesvm/dist/internal.js') as { TransactionErrorFieldless: Record<string, number | string>; Account: Runtime['Account'] };
  const fieldlessNames = new Map<number, string>(
    Object.entries(internal.TransactionErrorFieldless)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([name, code]) => [code, name]),
  );
  runtime = { LiteSVM, FailedTransactionMetadata, Account: internal.Account, fieldlessNames };
  return runtime;
}

/** LiteSVM's error as text, e.g. "InstructionError(1, Custom(1))" or "InsufficientFundsForFee". */
function describeFailure(rt: Runtime, failed: FailedTransactionMetadata): string {
  const err = failed.err();
  if (typeof err === 'number') return rt.fieldlessNames.get(err) ?? `TransactionError ${err}`;
  return err.toString();
}

/** Reads a compact-u16 at `at`: its value and the index after it. */
function shortU16(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; shift < 21; shift += 7) {
    const byte = bytes[at++] ?? 0;
    value |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
  }
  return [value, at];
}

/**
 * The first signature of a wire transaction, whether its message is versioned, and its recent
 * blockhash. Layout: [compact-u16 count] [64 × signatures] then the message: [0x80 | version,
 * versioned only] [3 header bytes] [compact-u16 key count] [32 × keys] [32-byte blockhash] ...
 */
function wireParts(wire: Uint8Array): { firstSignature: Uint8Array; versioned: boolean; blockhash: string } {
  const [count, signaturesAt] = shortU16(wire, 0);
  if (count < 1 || wire.length < signaturesAt + 64 * count + 1) throw new Error('not a signed wire transaction');
  const messageAt = signaturesAt + 64 * count;
  const versioned = (wire[messageAt]! & 0x80) !== 0;
  const [keys, keysAt] = shortU16(wire, messageAt + (versioned ? 1 : 0) + 3);
  const blockhashAt = keysAt + 32 * keys;
  if (wire.length < blockhashAt + 32) throw new Error('not a signed wire transaction');
  return { firstSignature: wire.subarray(signaturesAt, signaturesAt + 64), versioned, blockhash: encodeBase58(wire.subarray(blockhashAt, blockhashAt + 32)) };
}

/** How many of the latest blockhashes a transaction may carry: a cluster's 150 blocks, one per send here. */
const RECENT_BLOCKHASHES = 150;

/** `@solana-program/memo` 0.15's default program id (docs/solana-signing.md); LiteSVM 1.4.1 loads only the classic ones. */
const CURRENT_MEMO_PROGRAM = 'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH' as Address;
const CLASSIC_MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address;

/**
 * Runs the classic Memo program's code at the current client's default address too, so a Memo
 * built with the client's defaults executes in the sandbox as it does on a cluster (same
 * instruction: the memo's bytes as data, its signers as accounts).
 */
function deployCurrentMemo(svm: LiteSVM): void {
  const classic = svm.getAccount(CLASSIC_MEMO_PROGRAM);
  if (!classic.exists) throw new Error('sandbox chain: LiteSVM has no classic Memo program to deploy at the current address');
  svm.addProgram(CURRENT_MEMO_PROGRAM, new Uint8Array(classic.data));
}

export function createLiteSvmSandbox(options: { sponsorAddress: string; sponsorLamports: number }): LiteSvmSandbox {
  let started: Promise<{ svm: LiteSVM; native: NativeVm; rt: Runtime }> | undefined;
  const sponsorBytes = decodeBase58(options.sponsorAddress);
  const recentBlockhashes: string[] = [];

  const start = () =>
    (started ??= loadRuntime().then((rt) => {
      // LiteSVM accepts only its latest blockhash; a cluster accepts any of its last 150, so this
      // sandbox checks that window itself (execute) and LiteSVM's own check is off.
      const svm = new rt.LiteSVM().withBlockhashCheck(false);
      recentBlockhashes.push(svm.latestBlockhash());
      deployCurrentMemo(svm);
      const funded = svm.airdrop(options.sponsorAddress as Address, BigInt(options.sponsorLamports) as Lamports);
      if (funded instanceof rt.FailedTransactionMetadata) throw new Error(`sandbox chain: funding the sponsor failed: ${describeFailure(rt, funded)}`);
      return { svm, native: (svm as unknown as { inner: NativeVm }).inner, rt };
    })).catch((error: unknown) => {
      started = undefined;
      throw error;
    });

  /**
   * Executes the wire bytes once, as they are (no decode and re-encode through kit). A failure
   * that the runtime includes in a block charges the fee payer, as on a cluster. With
   * `refundFailure` (submitTransaction) the sponsor's lamports are put back as they were: the
   * platform never lands a failing transaction (the RPC adapter simulates first), so the sandbox's
   * balances are those of simulate-then-send, at one execution instead of two.
   */
  async function execute(wire: Uint8Array, refundFailure: boolean): Promise<SubmitResult> {
    const { svm, native, rt } = await start();
    const { firstSignature, versioned, blockhash } = wireParts(wire);
    if (!recentBlockhashes.includes(blockhash)) return { ok: false, error: 'BlockhashNotFound', logs: [] };
    const sponsorBefore = refundFailure ? native.getBalance(sponsorBytes) : null;
    const result = versioned ? native.sendVersionedTransaction(wire) : native.sendLegacyTransaction(wire);
    if (result instanceof rt.FailedTransactionMetadata) {
      const sponsor = native.getAccount(sponsorBytes);
      if (sponsor && sponsorBefore !== null && sponsor.lamports() !== sponsorBefore) {
        native.setAccount(sponsorBytes, new rt.Account(sponsorBefore, sponsor.data(), sponsor.owner(), sponsor.executable(), sponsor.rentEpoch()));
      }
      return { ok: false, error: describeFailure(rt, result), logs: result.meta().logs() };
    }
    // A new blockhash for the next transaction, as slots pass on a real cluster: two identical
    // requests rebuilt on one blockhash would otherwise be the same transaction twice.
    svm.expireBlockhash();
    recentBlockhashes.push(svm.latestBlockhash());
    if (recentBlockhashes.length > RECENT_BLOCKHASHES) recentBlockhashes.shift();
    return { ok: true, signature: encodeBase58(firstSignature) };
  }

  return {
    kind: 'litesvm',
    vm: async () => (await start()).svm,

    async getLatestBlockhash() {
      const { svm } = await start();
      return { blockhash: svm.latestBlockhash(), lastValidBlockHeight: svm.getClock().slot + 150n };
    },

    async simulateTransaction(wire) {
      const { svm, rt } = await start();
      const result = svm.simulateTransaction(decodeTransaction(wire));
      if (result instanceof rt.FailedTransactionMetadata) return { ok: false, error: describeFailure(rt, result), logs: result.meta().logs() };
      const meta = result.meta();
      return { ok: true, unitsConsumed: Number(meta.computeUnitsConsumed()), logs: meta.logs() };
    },

    async sendTransaction(wire) {
      const outcome = await execute(wire, false);
      // Like a node's preflight refusal: the caller learns why.
      if (!outcome.ok) throw new ChainUnavailableError(`sandbox chain refused the transaction: ${outcome.error}`);
      return { signature: outcome.signature };
    },

    submitTransaction: (wire) => execute(wire, true),

    async getSignatureStatuses(signatures) {
      const { svm, rt } = await start();
      return signatures.map((signature): SignatureStatus | null => {
        if (!/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(signature) || base58Bytes.encode(signature).length !== 64) return null;
        const found = svm.getTransaction(signature as Signature);
        if (!found) return null;
        return found instanceof rt.FailedTransactionMetadata ? { status: 'FAILED', error: describeFailure(rt, found) } : { status: 'FINALIZED' };
      });
    },

    async airdrop(address, lamports) {
      const { svm, rt } = await start();
      const result = svm.airdrop(address as Address, lamports as Lamports);
      if (result instanceof rt.FailedTransactionMetadata) {
        throw new AppError('TRANSACTION_REJECTED', `The sandbox chain refused the airdrop: ${describeFailure(rt, result)}`, { reason: describeFailure(rt, result) });
      }
    },

    async getBalance(address) {
      return (await start()).svm.getBalance(address as Address) ?? 0n;
    },
  };
}
