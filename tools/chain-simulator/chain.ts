/**
 * The simulated cluster: a slot clock over the one LiteSVM. Every `slotMs` a slot passes (block
 * height = slot, no slot is skipped): the transactions sent during the previous slot land in it,
 * in the order sent, then the slot's blockhash is made. A blockhash is valid for 150 blocks after
 * the one that made it (`lastValidBlockHeight`); a transaction whose blockhash is older never
 * lands. A landed transaction is `processed`, `confirmed` `confirmedLag` slots later and
 * `finalized` once the root (slot − `finalizedLag`) reaches it; a finality stall holds the root.
 * Reads (balances, accounts) show the latest state, as `processed` does.
 */
import { getBase58Decoder } from '@solana/kit';
import type { SlotHash } from 'litesvm';
import { parseLookupTable } from '../../src/adapters/chain/lookup-tables.ts';
import { type Accounts, type AccountView, addressBytes, createAccounts, type TokenBalance } from './accounts.ts';
import { encodeBase58 } from '../../src/lib/base58.ts';
import { type Faults } from './faults.ts';
import { invalidParams } from './jsonrpc.ts';
import { type Vm } from './vm.ts';
import { type DecodedTransaction } from './wire.ts';

export const BLOCKHASH_VALIDITY = 150;
/** Entries of the SlotHashes sysvar, as a node keeps them. */
const SLOT_HASHES_KEPT = 512;
/** The status cache: getSignatureStatuses without history looks this far back. */
const STATUS_CACHE_SLOTS = 300;
const MEMO_PROGRAMS = new Set(['Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo', 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH']);

export type Commitment = 'processed' | 'confirmed' | 'finalized';

export interface ClockSettings {
  slotMs: number;
  confirmedLag: number;
  finalizedLag: number;
  priorityFee: number;
}

export interface InnerInstructions {
  index: number;
  instructions: Array<{ programIdIndex: number; accounts: number[]; data: Uint8Array; stackHeight: number | null }>;
}

export interface Landed {
  signature: string;
  slot: number;
  blockTime: number;
  /** null for an airdrop (LiteSVM's faucet makes it; no wire bytes to show). */
  tx: DecodedTransaction | null;
  /** Every account of the transaction: its static keys, then those loaded from lookup tables. */
  keys: string[];
  /** The accounts loaded from lookup tables (getTransaction's meta.loadedAddresses). */
  loaded: { writable: string[]; readonly: string[] };
  err: unknown;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logs: string[];
  unitsConsumed: bigint;
  innerInstructions: InnerInstructions[];
  memo: string | null;
}

export interface Simulation {
  err: unknown;
  logs: string[];
  unitsConsumed: bigint;
  innerInstructions: InnerInstructions[];
  /** The accounts as the transaction left them (simulateTransaction's `accounts`). */
  postAccounts: Map<string, AccountView>;
}

interface MetaLike {
  logs(): string[];
  computeUnitsConsumed(): bigint;
  innerInstructions(): Array<Array<{ instruction(): { programIdIndex(): number; accounts(): Uint8Array; data(): Uint8Array }; stackHeight(): number }>>;
}

const base58 = getBase58Decoder();

function innerOf(meta: MetaLike): InnerInstructions[] {
  return meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return { programIdIndex: ix.programIdIndex(), accounts: [...ix.accounts()], data: new Uint8Array(ix.data()), stackHeight: inner.stackHeight() };
      }),
    }))
    .filter((entry) => entry.instructions.length > 0);
}

function memoOf(tx: DecodedTransaction): string | null {
  const memos = tx.instructions
    .filter((ix) => MEMO_PROGRAMS.has(tx.accountKeys[ix.programIdIndex] ?? ''))
    .map((ix) => `[${ix.data.length}] ${Buffer.from(ix.data).toString('utf8')}`);
  return memos.length ? memos.join('; ') : null;
}

export function createChain(vm: Vm, settings: ClockSettings, faults: Faults, log: (message: string) => void, now: () => number = Date.now) {
  const { native } = vm;
  const accounts: Accounts = createAccounts(native);
  let slot = 0;
  let root = 0;
  /** Blockhashes by the slot that made them (oldest first), and the reverse index. */
  const hashes: Array<{ slot: number; blockhash: string }> = [{ slot: 0, blockhash: native.latestBlockhash() }];
  const hashSlot = new Map<string, number>([[hashes[0]!.blockhash, 0]]);
  let pending: DecodedTransaction[] = [];
  const pendingSignatures = new Set<string>();
  const landed = new Map<string, Landed>();
  const byAddress = new Map<string, Landed[]>();
  const counts = { sent: 0, landed: 0, failedLanded: 0, dropped: 0, expired: 0, rejected: 0, duplicates: 0 };
  const slotListeners: Array<() => void> = [];
  /** Accounts written since the slot listeners last ran (account subscriptions look only at these). */
  let touched = new Set<string>();
  /** The slot each account was last written in (a subscription made after a write not yet final is notified when it is). */
  const lastWritten = new Map<string, number>();

  function record(entry: Landed) {
    landed.set(entry.signature, entry);
    for (const key of entry.keys) touch(key);
    for (const key of new Set(entry.keys)) {
      const list = byAddress.get(key) ?? [];
      list.push(entry);
      byAddress.set(key, list);
    }
  }

  function touch(address: string) {
    touched.add(address);
    lastWritten.set(address, slot);
  }

  function blockhashValid(blockhash: string, atHeight: number): boolean {
    const made = hashSlot.get(blockhash);
    return made !== undefined && atHeight <= made + BLOCKHASH_VALIDITY;
  }

  /** Executes one transaction in the current slot: it lands (success, or failure that pays its fee) or is dropped. */
  function land(tx: DecodedTransaction) {
    pendingSignatures.delete(tx.signature);
    if (landed.has(tx.signature)) return void counts.duplicates++;
    if (!blockhashValid(tx.blockhash, slot)) return void counts.expired++;
    const loaded = loadedAddresses(tx);
    const keys = [...(tx.accountKeys as string[]), ...loaded.writable, ...loaded.readonly];
    const preBalances = keys.map((key) => accounts.balance(key));
    const preTokenBalances = accounts.tokenBalances(keys);
    const result = tx.version === 'legacy' ? native.sendLegacyTransaction(tx.wire) : native.sendVersionedTransaction(tx.wire);
    const postBalances = keys.map((key) => accounts.balance(key));
    const failed = vm.isFailure(result);
    if (failed && postBalances[0] === preBalances[0]) {
      // Refused before execution (signature, fee payer, ...): a leader drops it, nothing lands.
      counts.rejected++;
      return log(`transaction ${tx.signature} not landed: ${JSON.stringify(vm.errorJson(result))}`);
    }
    const meta = (failed ? result.meta() : result) as unknown as MetaLike;
    counts.landed++;
    if (failed) counts.failedLanded++;
    record({
      signature: tx.signature,
      slot,
      blockTime: Math.floor(Date.now() / 1000),
      tx,
      keys,
      loaded,
      err: failed ? vm.errorJson(result) : null,
      fee: failed ? preBalances[0]! - postBalances[0]! : tx.fee,
      preBalances,
      postBalances,
      preTokenBalances,
      postTokenBalances: accounts.tokenBalances(keys),
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      innerInstructions: innerOf(meta),
      memo: memoOf(tx),
    });
  }

  /**
   * The accounts a version 0 transaction loads from lookup tables, as the table holds them before
   * it runs (writable ones first, as a node lists them after the static keys); an index the table
   * does not have is left out: LiteSVM refuses the transaction, which then never lands.
   */
  function loadedAddresses(tx: DecodedTransaction): { writable: string[]; readonly: string[] } {
    const loaded = { writable: [] as string[], readonly: [] as string[] };
    for (const lookup of tx.addressTableLookups ?? []) {
      const data = native.getAccount(addressBytes(lookup.accountKey))?.data();
      const table = data ? parseLookupTable(data) : undefined;
      const at = (indexes: number[]) => indexes.flatMap((i) => (table?.addresses[i] ? [table.addresses[i]] : []));
      loaded.writable.push(...at(lookup.writableIndexes));
      loaded.readonly.push(...at(lookup.readonlyIndexes));
    }
    return loaded;
  }

  /**
   * The SlotHashes sysvar follows the clock (newest first, at most 512 as a node keeps): a lookup
   * table is created for a recent slot, which the program looks for there. LiteSVM's SlotHash has
   * no constructor: each entry is a fresh copy of the sysvar's, set to the slot and its blockhash.
   * Copies are taken all at once when none is spare (every entry the sysvar holds), and the one
   * that falls off the end is reused: copying the whole sysvar out of the VM every slot for one
   * entry cost about 5 % of the simulator's CPU (bench chain-payin).
   */
  let slotHashes: SlotHash[] = [];
  const spare: SlotHash[] = [];
  function recordSlotHash(blockhash: string) {
    if (slotHashes.length >= SLOT_HASHES_KEPT) spare.push(slotHashes.pop()!);
    if (spare.length === 0) spare.push(...native.getSlotHashes());
    const entry = spare.pop();
    if (!entry) return;
    entry.slot = BigInt(slot);
    entry.hash = blockhash;
    slotHashes = [entry, ...slotHashes.slice(0, SLOT_HASHES_KEPT - 1)];
    native.setSlotHashes(slotHashes);
  }

  function tick() {
    slot++;
    native.warpToSlot(BigInt(slot));
    const batch = pending;
    pending = [];
    for (const tx of batch) {
      try {
        land(tx);
      } catch (error) {
        log(`landing ${tx.signature} failed: ${(error as Error).stack ?? String(error)}`);
      }
    }
    native.expireBlockhash();
    const blockhash = native.latestBlockhash();
    recordSlotHash(blockhash);
    hashes.push({ slot, blockhash });
    hashSlot.set(blockhash, slot);
    if (faults.finalityStalledUntil <= now()) root = Math.max(root, slot - settings.finalizedLag);
    // Kept: every blockhash still valid, and the root's (getLatestBlockhash at finalized), however far a stall holds it back.
    const oldest = Math.min(root, slot - BLOCKHASH_VALIDITY);
    while (hashes.length > 1 && hashes[1]!.slot <= oldest) hashSlot.delete(hashes.shift()!.blockhash);
    for (const listener of slotListeners) listener();
    touched = new Set();
  }

  const timer = setInterval(tick, settings.slotMs);
  timer.unref();

  /** The newest slot a commitment sees. */
  function slotAt(commitment: Commitment | undefined): number {
    if (commitment === 'processed') return slot;
    if (commitment === 'confirmed') return Math.max(root, slot - settings.confirmedLag);
    return root;
  }

  function status(entry: Landed) {
    const finalized = entry.slot <= root;
    const confirmed = entry.slot <= slotAt('confirmed');
    return {
      slot: entry.slot,
      confirmations: finalized ? null : slot - entry.slot,
      err: entry.err,
      status: entry.err === null ? { Ok: null } : { Err: entry.err },
      confirmationStatus: finalized ? 'finalized' : confirmed ? 'confirmed' : 'processed',
    };
  }

  return {
    accounts,
    counts,
    get slot() {
      return slot;
    },
    get root() {
      return root;
    },
    get pendingCount() {
      return pending.length;
    },
    slotAt,
    stop: () => clearInterval(timer),
    /** Called after every slot (websocket subscriptions). */
    onSlot: (listener: () => void) => void slotListeners.push(listener),
    /** Whether the account was written since the last slot's listeners ran. */
    touchedSinceLastSlot: (address: string) => touched.has(address),
    /** An account written outside a transaction (the faucet's mint-to). */
    touch,
    lastWrittenSlot: (address: string) => lastWritten.get(address),
    tick,

    latestBlockhash(commitment: Commitment | undefined) {
      const target = slotAt(commitment);
      let entry = hashes[0]!;
      for (let i = hashes.length - 1; i >= 0; i--) {
        if (hashes[i]!.slot <= target) {
          entry = hashes[i]!;
          break;
        }
      }
      return { blockhash: entry.blockhash, lastValidBlockHeight: BigInt(entry.slot + BLOCKHASH_VALIDITY) };
    },
    isBlockhashValid: (blockhash: string) => blockhashValid(blockhash, slot),
    isKnownSignature: (signature: string) => landed.has(signature),
    minimumBalance: (dataLength: number) => native.minimumBalanceForRentExemption(BigInt(dataLength)),

    simulate(tx: DecodedTransaction, options: { sigVerify: boolean; checkBlockhash: boolean }): Simulation {
      const refused = (err: string): Simulation => ({ err, logs: [], unitsConsumed: 0n, innerInstructions: [], postAccounts: new Map() });
      if (options.checkBlockhash && !blockhashValid(tx.blockhash, slot)) return refused('BlockhashNotFound');
      if (landed.has(tx.signature)) return refused('AlreadyProcessed');
      native.setSigverify(options.sigVerify);
      try {
        const result = tx.version === 'legacy' ? native.simulateLegacyTransaction(tx.wire) : native.simulateVersionedTransaction(tx.wire);
        if (vm.isFailure(result)) {
          const meta = result.meta() as unknown as MetaLike;
          return { err: vm.errorJson(result), logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed(), innerInstructions: innerOf(meta), postAccounts: new Map() };
        }
        const meta = result.meta() as unknown as MetaLike;
        const postAccounts = new Map<string, AccountView>();
        for (const item of result.postAccounts()) {
          const account = item.account();
          const address = encodeBase58(item.address);
          postAccounts.set(address, { address, lamports: account.lamports(), data: account.data(), owner: encodeBase58(account.owner()), executable: account.executable(), rentEpoch: account.rentEpoch() });
        }
        return { err: null, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed(), innerInstructions: innerOf(meta), postAccounts };
      } finally {
        native.setSigverify(true);
      }
    },

    /** Queues a transaction for the next slot, unless a fault drops it; the same signature is queued once. */
    enqueue(tx: DecodedTransaction) {
      counts.sent++;
      if (faults.dropNext > 0) {
        faults.dropNext--;
        counts.dropped++;
        return;
      }
      if (landed.has(tx.signature) || pendingSignatures.has(tx.signature)) return void counts.duplicates++;
      pendingSignatures.add(tx.signature);
      pending.push(tx);
    },

    airdrop(address: string, lamports: bigint): string {
      const before = accounts.balance(address);
      const result = vm.svm.airdrop(address as never, lamports as never);
      if (!result || vm.isFailure(result)) throw invalidParams(`airdrop failed: ${result ? JSON.stringify(vm.errorJson(result)) : 'no result'}`);
      const signature = base58.decode(result.signature());
      record({
        signature,
        slot,
        blockTime: Math.floor(Date.now() / 1000),
        tx: null,
        keys: [address],
        loaded: { writable: [], readonly: [] },
        err: null,
        fee: 0n,
        preBalances: [before],
        postBalances: [accounts.balance(address)],
        preTokenBalances: [],
        postTokenBalances: [],
        logs: [],
        unitsConsumed: 0n,
        innerInstructions: [],
        memo: null,
      });
      return signature;
    },

    /** A signature's status, or null: unknown, or older than the status cache without history. */
    signatureStatus(signature: string, searchHistory: boolean) {
      const entry = landed.get(signature);
      if (!entry) return null;
      if (!searchHistory && entry.slot < slot - STATUS_CACHE_SLOTS) return null;
      return status(entry);
    },

    transaction(signature: string, commitment: Commitment | undefined): Landed | null {
      const entry = landed.get(signature);
      return entry && entry.slot <= slotAt(commitment) ? entry : null;
    },

    /** Newest first, as getSignaturesForAddress lists them. */
    history(address: string, commitment: Commitment | undefined) {
      addressBytes(address);
      const visible = slotAt(commitment);
      return (byAddress.get(address) ?? []).filter((entry) => entry.slot <= visible).reverse().map((entry) => ({ entry, status: status(entry) }));
    },
  };
}

export type Chain = ReturnType<typeof createChain>;
