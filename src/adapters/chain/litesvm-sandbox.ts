/**
 * The sandbox chain for managed wallets: LiteSVM (npm `litesvm`, a prebuilt native Solana VM) in
 * this process, so sandbox transactions really execute: System, SPL Token, Token-2022, ATA and
 * Memo programs are loaded, signatures are verified, fees and balances are real. The sponsor is
 * airdropped SANDBOX_SPONSOR_LAMPORTS when the VM starts (lazily, on first use: most test apps
 * never touch it). State lives in memory: a restart starts a fresh chain.
 */
import { createRequire } from 'node:module';
import { type Address, getBase58Decoder, getBase58Encoder, getTransactionDecoder, type Lamports, type Signature } from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { AppError } from '../../errors.ts';
import { ChainUnavailableError, type SignatureStatus, type TransactionChain } from './transactions-port.ts';

export interface LiteSvmSandbox extends TransactionChain {
  readonly kind: 'litesvm';
  airdrop(address: string, lamports: bigint): Promise<void>;
  getBalance(address: string): Promise<bigint>;
  /** The VM itself, for tests that set up accounts (mints, token accounts). */
  vm(): LiteSVM;
}

const base58Text = getBase58Decoder();
const base58Bytes = getBase58Encoder();
const decodeTransaction = (wire: Uint8Array) => getTransactionDecoder().decode(wire);

// The native enum of error names (a `const enum` in litesvm's types, a plain object at runtime).
const { TransactionErrorFieldless } = createRequire(import.meta.url)('litesvm/dist/internal.js') as { TransactionErrorFieldless: Record<string, number | string> };
const FIELDLESS_NAMES = new Map<number, string>(
  Object.entries(TransactionErrorFieldless)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    .map(([name, code]) => [code, name]),
);

/** LiteSVM's error as text, e.g. "InstructionError(1, Custom(1))" or "InsufficientFundsForFee". */
export function describeFailure(failed: FailedTransactionMetadata): string {
  const err = failed.err();
  if (typeof err === 'number') return FIELDLESS_NAMES.get(err) ?? `TransactionError ${err}`;
  return err.toString();
}

export function createLiteSvmSandbox(options: { sponsorAddress: string; sponsorLamports: number }): LiteSvmSandbox {
  let svm: LiteSVM | undefined;
  const vm = (): LiteSVM => {
    if (!svm) {
      svm = new LiteSVM();
      const funded = svm.airdrop(options.sponsorAddress as Address, BigInt(options.sponsorLamports) as Lamports);
      if (funded instanceof FailedTransactionMetadata) throw new Error(`sandbox chain: funding the sponsor failed: ${describeFailure(funded)}`);
    }
    return svm;
  };

  return {
    kind: 'litesvm',
    vm,

    async getLatestBlockhash() {
      const chain = vm();
      return { blockhash: chain.latestBlockhash(), lastValidBlockHeight: chain.getClock().slot + 150n };
    },

    async simulateTransaction(wire) {
      const result = vm().simulateTransaction(decodeTransaction(wire));
      if (result instanceof FailedTransactionMetadata) return { ok: false, error: describeFailure(result), logs: result.meta().logs() };
      const meta = result.meta();
      return { ok: true, unitsConsumed: Number(meta.computeUnitsConsumed()), logs: meta.logs() };
    },

    async sendTransaction(wire) {
      const chain = vm();
      const transaction = decodeTransaction(wire);
      const result = chain.sendTransaction(transaction);
      if (result instanceof FailedTransactionMetadata) {
        // Like a node's preflight refusal: the caller learns why.
        throw new ChainUnavailableError(`sandbox chain refused the transaction: ${describeFailure(result)}`);
      }
      // A new blockhash for the next transaction, as slots pass on a real cluster: two identical
      // requests rebuilt on one blockhash would otherwise be the same transaction twice.
      chain.expireBlockhash();
      return { signature: base58Text.decode(result.signature()) };
    },

    async getSignatureStatuses(signatures) {
      const chain = vm();
      return signatures.map((signature): SignatureStatus | null => {
        if (!/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(signature) || base58Bytes.encode(signature).length !== 64) return null;
        const found = chain.getTransaction(signature as Signature);
        if (!found) return null;
        return found instanceof FailedTransactionMetadata ? { status: 'FAILED', error: describeFailure(found) } : { status: 'FINALIZED' };
      });
    },

    async airdrop(address, lamports) {
      const result = vm().airdrop(address as Address, lamports as Lamports);
      if (result instanceof FailedTransactionMetadata) {
        throw new AppError('TRANSACTION_REJECTED', `The sandbox chain refused the airdrop: ${describeFailure(result)}`, { reason: describeFailure(result) });
      }
    },

    async getBalance(address) {
      return vm().getBalance(address as Address) ?? 0n;
    },
  };
}
