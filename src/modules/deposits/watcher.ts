/**
 * The deposit watcher (CHAIN_PROVIDER=solana-rpc; docs/architecture/chain.md "PAYOUT deposits"):
 * each pass reads the token-account balance of every watched address in batches (getMultipleAccounts,
 * 100 per call, at the configured commitment) and lists signatures only where the balance differs
 * from the one its last handled signatures left (`observed_amount`), plus a few of the least
 * recently scanned as a safety rotation; for those, what touched the account since its cursor (only
 * final deposits) is handed, each incoming amount of the expected mint, to `handleChainDeposit`,
 * which applies the orders' rules (deposit-terms.ts). Each signature is one transaction: the
 * order's change, the deposit's record (once per signature and address) and the cursor move
 * together, so a watcher killed anywhere resumes at the first signature not committed, and none is
 * credited twice; the balance is stored only once every signature was handled. An instrument's
 * addresses (a payout batch's, a standing address's) are read in the same batches by the same
 * rule. What the order does
 * not take (late, repeated, no order) is recorded for an operator to return. Once an address is no
 * longer watched, its owner's token accounts of other mints are read once: what reached them (a
 * wrong mint) is recorded too, never credited. With account subscriptions (decision 0055) a
 * change notified at finalized scans its address at once, and between full reads a pass reads
 * only the balances no subscription covers.
 */
import type { AccountWatch, DepositChain } from '../../adapters/chain/deposits-port.ts';
import type { ChainDeposit } from '../../adapters/chain/port.ts';
import { ChainUnavailableError } from '../../adapters/chain/transactions-port.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal } from '../../lib/money.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import type { OrderRow } from '../orders/tables.ts';
import { depositsRepo as repo } from './repo.ts';
import type { DepositOutcome } from './tables.ts';

export interface DepositWatcherSettings {
  /** Addresses whose signatures are listed per full read whatever their balance, the least recently scanned first (the safety rotation); also the retiring addresses read per pass. */
  batchSize: number;
  /**
   * With account subscriptions (`accounts`), how often every balance is read anyway (a full
   * read); between full reads a pass reads only the accounts no subscription covers.
   */
  fullReadIntervalMs?: number;
  /** How long after its order's expiry an address is still watched, for late and second deposits. */
  lateWatchMs: number;
}

export interface WatcherLog {
  warn(obj: object, msg: string): void;
}

/** After a node failure, passes wait 1 s, 2 s, 4 s, ... up to a minute. */
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 60_000;

type HandleDeposit = (deposit: ChainDeposit, trx: Trx) => Promise<Pick<OrderRow, 'id' | 'status' | 'tx_hash'> | undefined>;

/** A watched address as a pass sees it: the balance just read (base units; an absent account reads 0), beside the one stored. */
type Watched = Awaited<ReturnType<typeof repo.allWatched>>[number] & { balance?: string };

/** An address the watcher scans as it scans an order's. */
export type WatchedAddress = Awaited<ReturnType<typeof repo.watched>>[number];

/** A watched address with the balance its handled signatures left (null: unknown, read them). */
export type ObservedAddress = WatchedAddress & { observed_amount: string | null };

/**
 * Addresses held by something other than an order (a payout batch's: src/modules/payout-batches/;
 * a standing address's: src/modules/standing-addresses/): every one watched now with its stored
 * balance (read in the pass's batches with the orders' addresses), up to `limit` of them the least
 * recently scanned first (the safety rotation), and what a deposit to one of them did (undefined:
 * not one of theirs, the orders' rule applies).
 */
export interface InstrumentDeposits {
  allWatched(db: Db, now: Date): Promise<ObservedAddress[]>;
  watched(db: Db, now: Date, limit: number): Promise<WatchedAddress[]>;
  handle(deposit: ChainDeposit, trx: Trx): Promise<DepositOutcome | undefined>;
}

export interface PassResult {
  scanned: number;
  /** Watched addresses whose balance was read. */
  balancesRead: number;
  deposits: number;
  /** The pass stopped at a node failure; the next passes wait. */
  backedOff: boolean;
}

export function createDepositWatcher(deps: {
  db: Db;
  clock: Clock;
  chain: DepositChain;
  handleChainDeposit: HandleDeposit;
  settings: DepositWatcherSettings;
  log?: WatcherLog;
  instruments?: InstrumentDeposits[];
  /** Account subscriptions (decision 0055): a change at `finalized` scans its address at once. */
  accounts?: AccountWatch | undefined;
}) {
  const { db, clock, chain, settings, accounts } = deps;
  let failures = 0;
  let retryAt = 0;
  /** The last full read (every balance), ms; and each account's subscription token at the last pass. */
  let lastFullRead = -Infinity;
  let coveredAtLastPass = new Map<string, number>();
  /** The watched addresses by token account, as the last pass read them: what a notification names. */
  let byAccount = new Map<string, Watched>();
  /** Scans of one address run one after the other (a pass's and a wake-up's): never two at once. */
  const scanning = new Map<string, Promise<unknown>>();

  function exclusive<T>(reference: string, work: () => Promise<T>): Promise<T> {
    const run = (scanning.get(reference) ?? Promise.resolve()).then(work);
    const settled = run.catch(() => undefined);
    scanning.set(reference, settled);
    void settled.then(() => scanning.get(reference) === settled && scanning.delete(reference));
    return run;
  }

  /** A notification: the address's new signatures handled now, as the next pass would (its balance is left to that pass). */
  function wake(account: string) {
    const address = byAccount.get(account);
    if (!address) return;
    exclusive(address.reference, () => scan({ ...address, balance: undefined })).catch((err: unknown) => {
      // A failed wake-up costs only latency: the next read of its balance finds the deposit.
      deps.log?.warn({ err, depositAddress: address.owner_address }, 'deposit watcher: wake-up scan failed; the passes find it');
    });
  }

  /** What the order made of a deposit it was handed, read from the order as it left the transaction. */
  function outcomeOf(order: Pick<OrderRow, 'status' | 'tx_hash'> | undefined, signature: string): DepositOutcome {
    if (!order) return 'NO_ORDER';
    if (order.tx_hash === signature) return order.status === 'FAILED' ? 'ORDER_FAILED' : 'CREDITED';
    // Never credited with a deposit: it left AWAITING_DEPOSIT without one (expired).
    return order.tx_hash === null ? 'LATE' : 'REPEATED';
  }

  async function handleSignature(address: Watched, signature: string, amount: string, blockTime: Date | null): Promise<boolean> {
    return inTransaction(db, async (trx) => {
      const now = clock.now();
      if (decimal(amount).lte(0) || (await repo.isRecorded(trx, signature, address.owner_address))) {
        await repo.advance(trx, address.reference, now, signature);
        return false;
      }
      const deposit = { depositAddress: address.owner_address, token: address.token, amount, txHash: signature, blockTime };
      let instrumentOutcome: DepositOutcome | undefined;
      for (const instrument of deps.instruments ?? []) {
        instrumentOutcome = await instrument.handle(deposit, trx);
        if (instrumentOutcome !== undefined) break;
      }
      const order = instrumentOutcome === undefined ? await deps.handleChainDeposit(deposit, trx) : undefined;
      const outcome = instrumentOutcome ?? outcomeOf(order, signature);
      await repo.record(trx, { signature, deposit_address: address.owner_address, order_id: order?.id ?? null, token: address.token, amount, outcome, detected_at: now });
      await repo.advance(trx, address.reference, now, signature);
      if (outcome !== 'CREDITED') deps.log?.warn({ orderId: order?.id, depositAddress: address.owner_address, signature, amount, token: address.token, outcome }, 'chain deposit not credited: held for an operator to return');
      return true;
    });
  }

  /**
   * Its new signatures handled; then the balance read stored, only when they explain it: the
   * newest handled leaves the account at that balance (or none was new and none was known). A
   * balance not yet explained (its transaction not final yet: a node may answer account reads
   * ahead of the commitment, as the chain simulator does) keeps the address listed next pass.
   */
  async function scan(read: Watched): Promise<number> {
    const address = { ...read, last_signature: await repo.cursor(db, read.reference) };
    const signatures = await chain.signaturesAfter(address.token_account, address.last_signature);
    let found = 0;
    let after: string | null | undefined;
    for (const { signature, failed, blockTime } of signatures) {
      const received = failed ? { amount: '0', balanceAfter: null } : await chain.receivedIn(signature, address.token_account, address.mint);
      // Listed at the commitment but not yet answered there: read again next pass, from here.
      if (received === undefined) return found;
      if (await handleSignature(address, signature, received.amount, blockTime)) found += 1;
      if (!failed) after = received.balanceAfter;
    }
    if (signatures.length === 0) await repo.advance(db, address.reference, clock.now());
    if (address.balance === undefined || address.balance === address.observed_amount) return found;
    // Nothing new handled: the cursor's transaction is the newest final one (none: an empty account).
    if (after === undefined) after = address.last_signature ? ((await chain.receivedIn(address.last_signature, address.token_account, address.mint))?.balanceAfter ?? null) : '0';
    if (after === address.balance) await repo.observe(db, address.reference, address.observed_amount, address.balance);
    return found;
  }

  /** Another mint sent to the owner: every incoming transfer of each such account, recorded once. */
  async function checkOtherMints(address: Awaited<ReturnType<typeof repo.retiring>>[number]): Promise<number> {
    let found = 0;
    for (const account of await chain.otherTokenAccountsOf(address.owner_address, address.mint)) {
      for (const { signature, failed } of await chain.signaturesAfter(account.tokenAccount, null)) {
        const amount = failed ? undefined : (await chain.receivedIn(signature, account.tokenAccount, account.mint))?.amount;
        if (amount === undefined || decimal(amount).lte(0)) continue;
        const row = { signature, deposit_address: address.owner_address, order_id: address.order_id, token: account.mint, amount, outcome: 'WRONG_MINT' as const, detected_at: clock.now() };
        await repo.record(db, row);
        deps.log?.warn({ orderId: address.order_id, depositAddress: address.owner_address, signature, amount, mint: account.mint, outcome: row.outcome }, 'chain deposit not credited: held for an operator to return');
        found += 1;
      }
    }
    await repo.markOtherMintsChecked(db, address.reference, clock.now());
    return found;
  }

  /**
   * The addresses to list signatures of: every watched one whose balance (read in batches) differs
   * from the one stored, then the `batchSize` least recently scanned (a safety rotation: a balance
   * can come back to the same figure between two passes); undefined when the node failed (backed off).
   */
  async function moved(result: PassResult): Promise<Watched[] | undefined> {
    const now = clock.now();
    const all: ObservedAddress[] = await repo.allWatched(db, now, settings.lateWatchMs);
    for (const instrument of deps.instruments ?? []) all.push(...(await instrument.allWatched(db, now)));
    byAccount = new Map(all.map((a) => [a.token_account, a]));
    accounts?.sync(byAccount.keys(), wake);
    // Covered now and at the last pass by the same subscription: any change since was notified.
    const full = !accounts || now.getTime() - lastFullRead >= (settings.fullReadIntervalMs ?? 0);
    const covered = new Map<string, number>();
    for (const a of all) {
      const token = accounts?.covered(a.token_account);
      if (token !== undefined) covered.set(a.token_account, token);
    }
    const toRead = full ? all : all.filter((a) => covered.get(a.token_account) === undefined || coveredAtLastPass.get(a.token_account) !== covered.get(a.token_account));
    let balances: Array<string | null>;
    try {
      balances = toRead.length > 0 ? await chain.balancesOf(toRead.map((a) => a.token_account)) : [];
    } catch (err) {
      if (!(err instanceof ChainUnavailableError)) throw err;
      backOff(err);
      return undefined;
    }
    coveredAtLastPass = covered;
    if (full) lastFullRead = now.getTime();
    result.balancesRead = toRead.length;
    const byReference = new Map<string, Watched>();
    toRead.forEach((a, i) => {
      const balance = balances[i] ?? '0';
      const observed = a.observed_amount === null ? null : decimal(a.observed_amount).toFixed();
      byReference.set(a.reference, { ...a, observed_amount: observed, balance });
    });
    const toScan = [...byReference.values()].filter((a) => a.observed_amount !== a.balance);
    // The safety rotation goes with the full reads (a balance can come back to the same figure between two).
    if (!full) return toScan;
    const stales = await repo.watched(db, now, settings.lateWatchMs, settings.batchSize);
    for (const instrument of deps.instruments ?? []) stales.push(...(await instrument.watched(db, now, settings.batchSize)));
    for (const stale of stales) {
      const known = byReference.get(stale.reference);
      if (known && known.observed_amount === known.balance) toScan.push(known);
    }
    return toScan;
  }

  function backOff(err: unknown): void {
    failures += 1;
    const waitMs = Math.min(BACKOFF_BASE_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
    retryAt = clock.now().getTime() + waitMs;
    deps.log?.warn({ err, waitMs }, 'deposit watcher: the node failed, backing off');
  }

  /** One step of the pass: `work` over `items`, false when the node failed (the pass ends and backs off). */
  async function each<T>(items: T[], signal: AbortSignal | undefined, result: PassResult, work: (item: T) => Promise<number>, what: (item: T) => string): Promise<boolean> {
    for (const item of items) {
      if (signal?.aborted) break;
      try {
        result.deposits += await work(item);
        result.scanned += 1;
      } catch (err) {
        if (!(err instanceof ChainUnavailableError)) {
          // This address alone (e.g. its mint no longer configured): the others go on.
          deps.log?.warn({ err, depositAddress: what(item) }, 'deposit watcher: address not scanned');
          continue;
        }
        backOff(err);
        return false;
      }
    }
    return true;
  }

  /** One batch of watched addresses, then of retiring ones; a node failure ends the pass and backs the next ones off. */
  async function runPass(signal?: AbortSignal): Promise<PassResult> {
    const result: PassResult = { scanned: 0, balancesRead: 0, deposits: 0, backedOff: false };
    if (clock.now().getTime() < retryAt) return { ...result, backedOff: true };
    const toScan = await moved(result);
    if (toScan === undefined) return { ...result, backedOff: true };
    if (!(await each(toScan, signal, result, (a) => exclusive(a.reference, () => scan(a)), (a) => a.owner_address))) return { ...result, backedOff: true };
    const retiring = await repo.retiring(db, clock.now(), settings.lateWatchMs, settings.batchSize);
    if (!(await each(retiring, signal, result, checkOtherMints, (a) => a.owner_address))) return { ...result, backedOff: true };
    failures = 0;
    return result;
  }

  /** Resolves when no wake-up scan runs (the worker stopping). */
  const drain = async () => {
    while (scanning.size > 0) await Promise.all(scanning.values());
  };

  return { runPass, drain };
}

export type DepositWatcher = ReturnType<typeof createDepositWatcher>;
