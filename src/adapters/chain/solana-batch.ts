/**
 * Several PAYINs' transfers in one treasury transaction (decision 0053, issue 44 item 1):
 *
 *   SetComputeUnitLimit (what simulation consumed, +15 % and 1,000; at most CHAIN_COMPUTE_UNIT_LIMIT per
 *                        transfer and the 1.4M a transaction may ask, which it stays at when the
 *                        simulation fails or the node does not answer it)
 *   SetComputeUnitPrice (as a single transfer's: the percentile of recent fees, capped; left out at 0)
 *   per order, in the order given:
 *     CreateAssociatedTokenIdempotent  only when the receiver's token account does not exist yet
 *                                      (one getMultipleAccounts for the batch) and no earlier
 *                                      order of the batch creates it: 2 more account keys and
 *                                      ~10 bytes, so a batch of new receivers holds fewer orders
 *     TransferChecked                  its index is the order's (batch, instruction index)
 *   Memo                 every order of the batch, each id as 22 characters (its 16 bytes in
 *                        base64url), space-separated: the bytes differ per set of orders, as the
 *                        single transfer's memo makes them differ per order
 *
 * The receivers' token accounts a lookup table of the treasury holds are loaded from it (decision
 * 0056): a one-byte index instead of 32 bytes, so more orders fit; every account the batch
 * carries is noted for the lookup-tables job to append.
 *
 * As many orders as fit in the 1,232 bytes of a transaction, the first ones given: the count is
 * found by counting the signed transaction's bytes from its instructions (transaction-size.ts),
 * then compiled once (the caller gets the rest back); the limit its simulation calls for is then
 * written into the compiled bytes (compute-unit-limit.ts), not compiled again. A
 * refusal of one intent (not an address, an amount finer than the mint) names it, so the caller
 * can give that order up and batch the others.
 */
import {
  type Address,
  address,
  type Blockhash,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
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
import { ChainTransferRefusedError, type PreparedBatch, type TransferIntent } from './port.ts';
import type { MintInfo, SolanaRpc } from './solana-mints.ts';
import type { LookupTableIndex } from './lookup-table-index.ts';
import type { TokenAccountKey } from './token-account-addresses.ts';
import { compiledWithUnitLimit } from './compute-unit-limit.ts';
import { createUnitSizer } from './simulated-units.ts';
import { signedTransactionSize } from './transaction-size.ts';
import type { TreasuryWalletKey } from './treasury-wallet-keys.ts';

type RpcCall = <T>(method: string, run: (abortSignal: AbortSignal) => Promise<T>) => Promise<T>;

/** The most a Solana transaction may be on the wire (IPv6 MTU minus headers). */
export const TRANSACTION_SIZE_LIMIT = 1232;
/** The most compute units a transaction may ask for. */
const MAX_COMPUTE_UNITS = 1_400_000;
const CLASSIC_MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

const base58 = getBase58Decoder();

/** A UUID's 16 bytes as 22 base64url characters; any other reference as it is. */
export function compactReference(reference: string): string {
  const hex = reference.replaceAll('-', '');
  return /^[0-9a-f]{32}$/i.test(hex) ? Buffer.from(hex, 'hex').toString('base64url') : reference;
}

/** Bytes of the signed transaction: a compact-u16 signature count, the signatures, the message. */
const wireSize = (messageBytes: number, signatures: number) => 1 + 64 * signatures + messageBytes;

interface Planned {
  intent: TransferIntent;
  owner: Address;
  destination: Address;
  amount: bigint;
}

export interface BatchPreparerDeps {
  rpc: SolanaRpc;
  rpcCall: RpcCall;
  /** Treasury wallet n's key (decision 0057): the batch's signer and fee payer. */
  walletKey: (wallet: number) => TreasuryWalletKey;
  mintOf: (symbol: string) => Promise<MintInfo>;
  priorityFee: (accounts: Address[]) => Promise<bigint>;
  /** The latest blockhash at `confirmed` and its last valid height (read at most twice a second: solana-transfers.ts, RECENT_READ_MS). */
  latestBlockhash: () => Promise<{ blockhash: Blockhash; lastValidBlockHeight: bigint }>;
  baseUnits: (amount: string, info: MintInfo) => bigint;
  destinationOf: (wallet: string) => Address;
  /** Associated token account addresses (token-account-addresses.ts: remembered). */
  tokenAccountOf: (key: TokenAccountKey) => Promise<Address>;
  computeUnitLimit: number;
  /** The treasury's lookup tables (decision 0056); without it, every account is a static key. */
  lookupTables?: LookupTableIndex;
}

export function createBatchPreparer(deps: BatchPreparerDeps) {
  const { rpc, rpcCall } = deps;
  const simulatedUnits = createUnitSizer({ rpc, rpcCall });

  /** Each intent checked and its accounts derived; a refusal names the intent. */
  async function plan(intents: readonly TransferIntent[], info: MintInfo): Promise<Planned[]> {
    return Promise.all(
      intents.map(async (intent) => {
        try {
          const owner = deps.destinationOf(intent.destination);
          const amount = deps.baseUnits(intent.amount, info);
          const destination = await deps.tokenAccountOf({ owner, mint: info.mint, tokenProgram: info.tokenProgram });
          return { intent, owner, destination, amount };
        } catch (err) {
          if (err instanceof ChainTransferRefusedError) throw new ChainTransferRefusedError(err.message, intent.reference);
          throw err;
        }
      }),
    );
  }

  /** The receivers' token accounts that already exist (confirmed): no create instruction for them. */
  async function existing(accounts: Address[]): Promise<Set<string>> {
    const unique = [...new Set(accounts)];
    const { value } = await rpcCall('getMultipleAccounts', (abortSignal) =>
      rpc.getMultipleAccounts(unique, { commitment: 'confirmed', encoding: 'base64' }).send({ abortSignal }),
    );
    return new Set(unique.filter((_, i) => value[i] !== null));
  }

  async function prepareTransferBatch(intents: readonly TransferIntent[], wallet = 1): Promise<PreparedBatch> {
    const { signer: treasury, address: treasuryAddress, noop: treasurySigner } = deps.walletKey(wallet);
    if (intents.length === 0) throw new Error('a transfer batch needs at least one transfer');
    const tokens = new Set(intents.map((intent) => intent.token));
    if (tokens.size !== 1) throw new Error('a transfer batch carries one token');
    const info = await deps.mintOf(intents[0]!.token);
    const planned = await plan(intents, info);
    const [source, present] = await Promise.all([
      deps.tokenAccountOf({ owner: treasuryAddress, mint: info.mint, tokenProgram: info.tokenProgram }),
      existing(planned.map((p) => p.destination)),
    ]);
    const [microLamports, lifetime] = await Promise.all([deps.priorityFee([treasuryAddress, source]), deps.latestBlockhash()]);

    /** The configured budget: CHAIN_COMPUTE_UNIT_LIMIT per transfer, at most what a transaction may ask. */
    const configuredUnits = (count: number) => Math.min(MAX_COMPUTE_UNITS, deps.computeUnitLimit * count);

    // Each order's instructions (its token account's creation when needed, then its transfer) and
    // its memo word, built once for all: whether an order creates depends only on the orders
    // before it, so the first `count` of them are any count's.
    const created = new Set(present);
    const perOrder = planned.map((p) => {
      const creates = !created.has(p.destination);
      created.add(p.destination);
      const transfer = getTransferCheckedInstruction({ source, mint: info.mint, destination: p.destination, authority: treasurySigner, amount: p.amount, decimals: info.decimals }, { programAddress: info.tokenProgram });
      const creation = creates ? [getCreateAssociatedTokenIdempotentInstruction({ payer: treasurySigner, ata: p.destination, owner: p.owner, mint: info.mint, tokenProgram: info.tokenProgram })] : [];
      return { reference: p.intent.reference, creates, instructions: [...creation, transfer], memoWord: compactReference(p.intent.reference) };
    });

    /** The instructions for the first `count` orders, each transfer's index and the orders that create a token account. */
    function instructionsFor(count: number, units = configuredUnits(count)) {
      const instructionIndexes: number[] = [];
      const accountCreators: string[] = [];
      const budget: Instruction[] = [
        getSetComputeUnitLimitInstruction({ units }),
        ...(microLamports > 0n ? [getSetComputeUnitPriceInstruction({ microLamports })] : []),
      ];
      const transfers: Instruction[] = [];
      const orders = perOrder.slice(0, count);
      for (const order of orders) {
        if (order.creates) accountCreators.push(order.reference);
        transfers.push(...order.instructions);
        instructionIndexes.push(budget.length + transfers.length - 1);
      }
      const memo = orders.map((order) => order.memoWord).join(' ');
      return { instructions: [...budget, ...transfers, getAddMemoInstruction({ memo }, { programAddress: CLASSIC_MEMO_PROGRAM })], instructionIndexes, accountCreators };
    }

    // The treasury's lookup tables holding two or more of these receivers' token accounts
    // (lookup-table-index.ts): each account loaded from one is an index, not 32 bytes.
    const tables = deps.lookupTables?.tablesFor(planned.map((p) => p.destination)) ?? {};
    const withTables = Object.keys(tables).length > 0;

    function messageFor(count: number, units = configuredUnits(count)) {
      const { instructions, instructionIndexes, accountCreators } = instructionsFor(count, units);
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayer(treasuryAddress, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) => appendTransactionMessageInstructions(instructions, m),
        (m) => (withTables ? compressTransactionMessageUsingAddressLookupTables(m, tables) : m),
      );
      return { message, instructionIndexes, accountCreators };
    }

    function compile(count: number, units = configuredUnits(count)) {
      const { message, instructionIndexes, accountCreators } = messageFor(count, units);
      return { compiled: compileTransaction(message), instructionIndexes, accountCreators };
    }

    // The most orders that fit, counted without compiling (transaction-size.ts), then compiled
    // once: a compilation per count tried was most of a batch's preparation. Should the count be
    // off, the compiled size has the last word.
    let count = intents.length;
    while (count > 1 && signedTransactionSize(treasuryAddress, messageFor(count).message.instructions) > TRANSACTION_SIZE_LIMIT) count--;
    let built = compile(count);
    const sizeOf = (b: ReturnType<typeof compile>) => wireSize(b.compiled.messageBytes.length, 1);
    while (count > 1 && sizeOf(built) > TRANSACTION_SIZE_LIMIT) built = compile(--count);
    // The limit the transaction asks for is what it used in simulation plus a margin (the price is
    // paid per unit asked, not used); the size does not change with it. A simulation that fails
    // or does not answer leaves the configured budget: the chain judges the transaction as before.
    const units = await simulatedUnits(built.compiled, configuredUnits(count));
    if (units !== undefined) built = { ...built, compiled: compiledWithUnitLimit(built.compiled, units, () => compile(count, units).compiled) };
    const { compiled, instructionIndexes, accountCreators } = built;
    deps.lookupTables?.noteCarried(planned.slice(0, count).map((p) => p.destination));
    const signature = treasury.sign(new Uint8Array(compiled.messageBytes)) as SignatureBytes;
    const signed = { ...compiled, signatures: { ...compiled.signatures, [treasuryAddress]: signature } };
    return {
      txHash: base58.decode(signature),
      wire: getBase64EncodedWireTransaction(signed),
      lastValidBlockHeight: lifetime.lastValidBlockHeight.toString(),
      instructionIndexes,
      accountCreators,
    };
  }

  return { prepareTransferBatch };
}
