/**
 * The orders' transfers on a real Solana cluster (CHAIN_PROVIDER=solana-rpc), through the node at
 * SOLANA_RPC_URL with @solana/kit: a PAYIN's tokens go from the platform's treasury to the
 * receiver's associated token account. One transaction, fee payer and only signer the treasury:
 *
 *   SetComputeUnitLimit (CHAIN_COMPUTE_UNIT_LIMIT)
 *   SetComputeUnitPrice (the node's recent prioritization fees, 75th percentile of the non-zero
 *                        ones, capped by CHAIN_PRIORITY_FEE_MAX_MICROLAMPORTS; left out at 0)
 *   CreateAssociatedTokenIdempotent (the receiver's token account; the treasury pays its rent,
 *                        ledgered in account_rent: a receiver is never asked to hold SOL first)
 *   TransferChecked     (treasury's token account → receiver's, decimals read from the mint)
 *   Memo                (the order's reference: two orders of one receiver for the same amount,
 *                        prepared on the same blockhash, would otherwise be the same bytes, one
 *                        signature, one transfer for two COMPLETED orders)
 *
 * The exactly-once protocol is the port's (port.ts): prepare signs and sends nothing, send
 * re-sends the same bytes, and a status is EXPIRED only when the finalized block height is past
 * the transaction's last valid block height and the node's whole history does not know its
 * signature (solana-prepared.ts, shared with the deposit sweeps). Every failure to talk to the node is ChainUnavailableError, naming the method, never
 * the URL (it may carry an API key).
 */
import {
  type Address,
  type Blockhash,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  type Instruction,
  pipe,
  type SignatureBytes,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getAddMemoInstruction } from '@solana-program/memo';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { decimal } from '../../lib/money.ts';
import { createReadCache } from '../../lib/read-cache.ts';
import { type ChainAdapter, ChainTransferRefusedError, type PreparedTransfer, type TransferIntent, type TransferState } from './port.ts';
import { call, createMintReader, type MintInfo, RPC_TIMEOUT_MS } from './solana-mints.ts';
import { createBatchPreparer } from './solana-batch.ts';
import { createPreparedTransactions } from './solana-prepared.ts';
import type { LookupTableIndex } from './lookup-table-index.ts';
import { compiledWithUnitLimit } from './compute-unit-limit.ts';
import { createUnitSizer } from './simulated-units.ts';
import { createTokenAccountAddresses } from './token-account-addresses.ts';
import { type TreasurySigner, treasuryWalletKeys } from './treasury-wallet-keys.ts';
import { createRpcClient } from './solana-rpc-client.ts';

export type { TreasurySigner };

export interface SolanaTransferSettings {
  rpcUrl: string;
  commitment: 'confirmed' | 'finalized';
  /** Token symbol → mint address. */
  tokenMints: Record<string, string>;
  computeUnitLimit: number;
  priorityFeeMaxMicroLamports: number;
  /** Default RPC_TIMEOUT_MS (tests of a hanging node shorten it). */
  rpcTimeoutMs?: number;
  /** Default RECENT_READ_MS: how long a blockhash or a priority fee read is reused. */
  recentReadMs?: number;
}

/** The orders' transfers on the node (deposit addresses: solana-deposits.ts). */
export type SolanaTransfers = Pick<ChainAdapter, 'prepareTransfer' | 'sendTransfer' | 'getTransferStatus'> & Required<Pick<ChainAdapter, 'prepareTransferBatch' | 'landsAfterSend'>>;

const CLASSIC_MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
/**
 * How long the latest blockhash and the recent prioritization fees are reused (lib/read-cache.ts)
 * instead of two RPC calls per transaction (a busy worker prepared ~13 a second). A blockhash that
 * old leaves a transaction that much less of its ~150 blocks (60 s at 400 ms slots); a status that
 * finds a transaction EXPIRED forgets the one kept, so its re-signed replacement never gets a
 * blockhash read before the expiry was seen (a chain whose slots jump, as the tests' hand-moved
 * clock does, could otherwise hand it the expired one again). A fee is a percentile over the last
 * 150 slots: half a second does not move it.
 */
export const RECENT_READ_MS = 500;
/** The percentile of recent non-zero prioritization fees a transfer pays, so it lands ahead of most. */
const PRIORITY_PERCENTILE = 0.75;

const base58 = getBase58Decoder();

export { ChainTransferRefusedError };

export function createSolanaTransfers(deps: { settings: SolanaTransferSettings; treasuries: readonly TreasurySigner[]; lookupTables?: LookupTableIndex }): SolanaTransfers {
  const { settings } = deps;
  const rpc = createRpcClient(settings.rpcUrl);
  const walletKey = treasuryWalletKeys(deps.treasuries);
  const rpcCall = <T>(method: string, run: (abortSignal: AbortSignal) => Promise<T>) => call(method, settings.rpcTimeoutMs ?? RPC_TIMEOUT_MS, run);
  const mintOf = createMintReader({ rpc, rpcCall, tokenMints: settings.tokenMints, commitment: settings.commitment });
  // Costs are the fee payer's: whichever wallet signed, it is the transaction's first account.
  const transactions = createPreparedTransactions({ rpc, rpcCall, commitment: settings.commitment });
  const tokenAccountOf = createTokenAccountAddresses();
  const simulatedUnits = createUnitSizer({ rpc, rpcCall });

  // Read at most every RECENT_READ_MS, shared by the transfers and batches prepared meanwhile.
  const recent = { ttlMs: settings.recentReadMs ?? RECENT_READ_MS, maxEntries: 64 };
  const recentFees = createReadCache<readonly { prioritizationFee: bigint }[]>(recent);
  const blockhashes = createReadCache<{ blockhash: Blockhash; lastValidBlockHeight: bigint }>(recent);
  // Confirmed, not finalized: a blockhash valid for longer. One on a dropped fork only makes the
  // transaction expire unlanded, which the status sees (finalized height past it, unknown).
  const latestBlockhash = () =>
    blockhashes.read('confirmed', () => rpcCall('getLatestBlockhash', (abortSignal) => rpc.getLatestBlockhash({ commitment: 'confirmed' }).send({ abortSignal })).then(({ value }) => value));

  /** The price of a compute unit: a high percentile of what recently landed, never above the cap. */
  async function priorityFee(accounts: Address[]): Promise<bigint> {
    const cap = BigInt(settings.priorityFeeMaxMicroLamports);
    if (cap === 0n) return 0n;
    const recent = await recentFees.read(accounts.join(' '), () => rpcCall('getRecentPrioritizationFees', (abortSignal) => rpc.getRecentPrioritizationFees(accounts).send({ abortSignal })));
    const fees = recent.map((entry) => BigInt(entry.prioritizationFee)).filter((fee) => fee > 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (fees.length === 0) return 0n;
    const fee = fees[Math.min(fees.length - 1, Math.floor(fees.length * PRIORITY_PERCENTILE))]!;
    return fee < cap ? fee : cap;
  }

  function baseUnits(amount: string, info: MintInfo): bigint {
    const units = decimal(amount).times(decimal(10).pow(info.decimals));
    if (!units.isInteger() || units.lte(0)) throw new ChainTransferRefusedError(`amount ${amount} is not a positive amount of a token with ${info.decimals} decimals`);
    return BigInt(units.toFixed(0));
  }

  function destinationOf(wallet: string): Address {
    try {
      return address(wallet);
    } catch {
      throw new ChainTransferRefusedError('the destination is not a Solana address');
    }
  }

  async function prepareTransfer(intent: TransferIntent, wallet = 1): Promise<PreparedTransfer> {
    const { signer: treasury, address: treasuryAddress, noop: treasurySigner } = walletKey(wallet);
    const info = await mintOf(intent.token);
    const owner = destinationOf(intent.destination);
    const [source, destination] = await Promise.all([
      tokenAccountOf({ owner: treasuryAddress, mint: info.mint, tokenProgram: info.tokenProgram }),
      tokenAccountOf({ owner, mint: info.mint, tokenProgram: info.tokenProgram }),
    ]);
    const amount = baseUnits(intent.amount, info);
    const [microLamports, lifetime] = await Promise.all([priorityFee([treasuryAddress, source]), latestBlockhash()]);
    const compile = (units: number) => {
      const instructions: Instruction[] = [
        getSetComputeUnitLimitInstruction({ units }),
        ...(microLamports > 0n ? [getSetComputeUnitPriceInstruction({ microLamports })] : []),
        getCreateAssociatedTokenIdempotentInstruction({ payer: treasurySigner, ata: destination, owner, mint: info.mint, tokenProgram: info.tokenProgram }),
        getTransferCheckedInstruction({ source, mint: info.mint, destination, authority: treasurySigner, amount, decimals: info.decimals }, { programAddress: info.tokenProgram }),
        // The classic Memo program, deployed on every cluster (the client's default address is not).
        getAddMemoInstruction({ memo: intent.reference }, { programAddress: CLASSIC_MEMO_PROGRAM }),
      ];
      return compileTransaction(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayer(treasuryAddress, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
          (m) => appendTransactionMessageInstructions(instructions, m),
        ),
      );
    };
    // As a batch's: the units its simulation used plus a margin, at most the configured limit.
    let compiled = compile(settings.computeUnitLimit);
    const units = await simulatedUnits(compiled, settings.computeUnitLimit);
    if (units !== undefined) compiled = compiledWithUnitLimit(compiled, units, () => compile(units));
    const signature = treasury.sign(new Uint8Array(compiled.messageBytes)) as SignatureBytes;
    const signed = { ...compiled, signatures: { ...compiled.signatures, [treasuryAddress]: signature } };
    return { txHash: base58.decode(signature), wire: getBase64EncodedWireTransaction(signed), lastValidBlockHeight: lifetime.lastValidBlockHeight.toString() };
  }

  async function getTransferStatus(prepared: PreparedTransfer): Promise<TransferState> {
    const state = await transactions.status(prepared);
    // The caller re-signs next: on a blockhash read from now on, never one read before.
    if (state.status === 'EXPIRED') blockhashes.forget('confirmed');
    // A transfer only ever spends the treasury's lamports: beyond the fee, the rent of the receiver's account.
    if (!state.costs) return state;
    const rent = BigInt(state.costs.rentLamports);
    return { ...state, costs: { feeLamports: state.costs.feeLamports, rentLamports: (rent > 0n ? rent : 0n).toString() } };
  }

  const { prepareTransferBatch } = createBatchPreparer({ rpc, rpcCall, walletKey, mintOf, priorityFee, latestBlockhash, baseUnits, destinationOf, tokenAccountOf, computeUnitLimit: settings.computeUnitLimit, ...(deps.lookupTables ? { lookupTables: deps.lookupTables } : {}) });

  return { prepareTransfer, sendTransfer: transactions.send, getTransferStatus, prepareTransferBatch, landsAfterSend: true };
}
