/**
 * Deposit sweeps (CHAIN_PROVIDER=solana-rpc; docs/architecture/chain.md "Sweeps"): every CREDITED
 * deposit (the books put it in token_treasury) is moved from its address to the treasury by one
 * transaction, exactly once through crashes by the PAYIN transfers' rule (transfer-steps.ts):
 * - no sweep yet: prepared (signed by the sponsor and the address's sealed key) and stored,
 *   committed, before the first send;
 * - PENDING, unknown to the chain: the same bytes sent again; landed: waits for SOLANA_COMMITMENT;
 * - EXPIRED (finalized height past its last valid block height, and unknown to the node's whole
 *   history): another prepared and stored in its place, guarded by the old signature, then sent;
 *   after `maxAttempts` so, FAILED for an operator;
 * - CONFIRMED: DONE, and what the sponsor paid (fee, rent net of the rent reclaimed) posted in the
 *   same transaction; FAILED (landed with an error: nothing moved, the fee paid): FAILED, the fee
 *   posted, for an operator.
 * Deposits not credited (late, repeated, wrong mint, an order failed) are never swept here. A payout
 * batch's address is swept the same way once its deposits funded it, the amount that funded it (its
 * sweep's `payout_batch_id`, its costs posted against the batch; migration 0069). A standing
 * address is swept once per deposit its PAYOUT was credited with, one sweep PENDING at a time per
 * address, its token account never closed (its sweep's `standing_deposit_signature`, its costs
 * posted against that PAYOUT as an order's; migration 0071, decision 0049).
 *
 * The sponsor pays every sweep: while it holds too little SOL to pay one (`sponsorFunds`; decision
 * 0038), no sweep is started and none that expired is rebuilt (each would expire unlanded, spend
 * an attempt, and end FAILED for an operator); the sweeps wait, and say why at most once a minute.
 */
import { ChainTransferRefusedError, type PreparedTransfer, type TransferState } from '../../adapters/chain/port.ts';
import type { SweepChain } from '../../adapters/chain/sweeps-port.ts';
import { ChainUnavailableError } from '../../adapters/chain/transactions-port.ts';
import type { Db, Trx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { KeyVault } from '../../lib/key-vault.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import { depositsRepo } from './repo.ts';
import { sweepsRepo as repo } from './sweeps-repo.ts';

export interface SweepLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

type PostSweepCosts = (trx: Trx, owner: { id: string; merchant_id: string; referenceType?: 'order' | 'payout_batch' }, costs: { feeLamports: bigint; rentLamports: bigint }, at: Date) => Promise<unknown>;

/** The sponsor's SOL as the sweeps need to know it (treasury/sponsor-balance.ts); undefined: not known now. */
export interface SponsorFunds {
  /** Its public address, named in the log; never its key. */
  address: string;
  balance: string;
  canPaySweep: boolean;
  /** What one sweep needs it to hold, whole SOL. */
  sweepMinimum: string;
}

/** The least often the sweeps repeat that they are waiting for the sponsor. */
const WAITING_LOG_SPACING_MS = 60_000;

export interface SweeperDeps {
  db: Db;
  clock: Clock;
  chain: SweepChain;
  /** Kind 'deposit-address': each key opens under its reference. */
  vault: Pick<KeyVault, 'open'>;
  postSweepCosts: PostSweepCosts;
  settings: { batchSize: number; maxAttempts: number };
  /** Read at most once per pass that has work; unset or undefined, the sweeps go on as if it were funded. */
  sponsorFunds?: (() => Promise<SponsorFunds | undefined>) | undefined;
  log?: SweepLog | undefined;
  /** Test-only: called once a signed sweep is committed, before its first send. */
  afterSweepStored?: (() => void) | undefined;
}

export interface SweepPassResult {
  prepared: number;
  done: number;
  failed: number;
  /** Sweeps not started, or expired and not rebuilt, because the sponsor cannot pay one. */
  waitingForSponsor: number;
  /** The pass stopped at a node failure. */
  unavailable: boolean;
}

type Unswept = Awaited<ReturnType<typeof repo.unswept>>[number];
type Pending = Awaited<ReturnType<typeof repo.pending>>[number];

/** Whose deposit a sweep moves, for the log: its order's id or its payout batch's. */
const ownerOf = (row: { order_id: string | null; payout_batch_id: string | null }) => (row.order_id !== null ? { orderId: row.order_id } : { payoutBatchId: row.payout_batch_id });

export function createSweeper(deps: SweeperDeps) {
  const { db, clock, chain, vault, settings, log } = deps;
  let waitingLoggedAt = Number.NEGATIVE_INFINITY;

  function intentOf(row: { reference: string; owner_address: string; encrypted_private_key: string; key_version: number; token: string; amount: string; standing_deposit_signature: string | null }) {
    const owner = vault.open(row.reference, { encryptedPrivateKey: row.encrypted_private_key, keyVersion: row.key_version });
    // The seal binds the key to its reference, not to the address column: a row whose address is not its key's would sweep another account.
    if (owner.address !== row.owner_address) throw new Error(`deposit address ${row.owner_address}: its sealed key opens to another address`);
    // A standing address's token account stays open for its next deposits (decision 0049).
    return { token: row.token, owner, amount: row.amount, ...(row.standing_deposit_signature !== null ? { keepOpen: true } : {}) };
  }

  /** The address's sealed key and row, for a rebuild (a pending row does not carry the key). */
  async function keyOf(depositAddress: string) {
    return db.selectFrom('deposit_addresses').select(['reference', 'owner_address', 'encrypted_private_key', 'key_version']).where('owner_address', '=', depositAddress).executeTakeFirstOrThrow();
  }

  /** A credited deposit without a sweep: prepared, stored (committed), then sent. */
  async function start(row: Unswept): Promise<boolean> {
    let prepared;
    try {
      prepared = await chain.prepareSweep(intentOf(row));
    } catch (err) {
      if (!(err instanceof ChainTransferRefusedError)) throw err;
      log?.error({ ...ownerOf(row), depositAddress: row.owner_address, refusal: err.message }, 'deposit sweep refused before signing: left for an operator');
      return false;
    }
    const now = clock.now();
    const stored = await repo.insert(db, {
      deposit_address: row.owner_address,
      order_id: row.order_id,
      payout_batch_id: row.payout_batch_id,
      standing_deposit_signature: row.standing_deposit_signature,
      token: row.token,
      amount: row.amount,
      status: 'PENDING',
      tx_hash: prepared.txHash,
      wire: prepared.wire,
      last_valid_block_height: prepared.lastValidBlockHeight,
      closes: prepared.closes,
      created_at: now,
      updated_at: now,
    });
    // Another worker stored its own first (or, at a standing address, one of another deposit is PENDING): that one is sent, this one never.
    if (!stored) return false;
    deps.afterSweepStored?.();
    await chain.sendSweep(prepared);
    return true;
  }

  async function settle(row: Pending, prepared: PreparedTransfer, state: TransferState & { status: 'CONFIRMED' | 'FAILED' }): Promise<'done' | 'failed' | undefined> {
    const feeLamports = state.costs?.feeLamports ?? '0';
    const rentLamports = state.costs?.rentLamports ?? '0';
    const failureReason = state.status === 'FAILED' ? `the sweep landed with an error: ${state.error ?? 'unknown error'}` : undefined;
    const settled = await inTransaction(db, async (trx) => {
      const now = clock.now();
      const ok = await repo.settle(trx, row.deposit_address, prepared.txHash, { status: state.status === 'CONFIRMED' ? 'DONE' : 'FAILED', feeLamports, rentLamports, ...(failureReason ? { failureReason } : {}) }, now);
      if (ok) await deps.postSweepCosts(trx, row.order_id !== null ? { id: row.order_id, merchant_id: row.merchant_id } : { id: row.payout_batch_id!, merchant_id: row.merchant_id, referenceType: 'payout_batch' }, { feeLamports: BigInt(feeLamports), rentLamports: BigInt(rentLamports) }, now);
      // The balance fell by the sweep: a deposit of the same amount after it would leave the
      // balance as the watcher last saw it, so its signatures are read again next pass.
      if (ok) await depositsRepo.forgetBalance(trx, row.deposit_address, now);
      return ok;
    });
    if (!settled) return undefined;
    if (failureReason) log?.error({ ...ownerOf(row), depositAddress: row.deposit_address, txHash: prepared.txHash }, `deposit sweep failed, left for an operator: ${failureReason}`);
    return state.status === 'CONFIRMED' ? 'done' : 'failed';
  }

  /** EXPIRED: rebuilt in its place (only if it is still the stored one) and sent; past the last attempt, FAILED; left EXPIRED while the sponsor cannot pay. */
  async function replaceExpired(row: Pending, expired: PreparedTransfer, sponsorCannotPay: () => Promise<boolean>): Promise<'failed' | 'waitingForSponsor' | undefined> {
    if (row.attempt >= settings.maxAttempts) {
      const failureReason = `${row.attempt} sweep transactions expired without landing; the tokens are still at the deposit address`;
      const ok = await repo.settle(db, row.deposit_address, expired.txHash, { status: 'FAILED', failureReason }, clock.now());
      if (ok) log?.error({ ...ownerOf(row), depositAddress: row.deposit_address, attempts: row.attempt }, `deposit sweep given up, left for an operator: ${failureReason}`);
      return ok ? 'failed' : undefined;
    }
    if (await sponsorCannotPay()) {
      await repo.touch(db, row.deposit_address, clock.now());
      return 'waitingForSponsor';
    }
    const next = await chain.prepareSweep(intentOf({ ...(await keyOf(row.deposit_address)), token: row.token, amount: row.amount, standing_deposit_signature: row.standing_deposit_signature }));
    if (await repo.replace(db, row.deposit_address, expired.txHash, next, clock.now())) {
      log?.warn({ ...ownerOf(row), depositAddress: row.deposit_address, attempt: row.attempt + 1, expiredTxHash: expired.txHash, txHash: next.txHash }, 'deposit sweep expired without landing: rebuilt');
      await chain.sendSweep(next);
    }
    return undefined;
  }

  /** A stored sweep: settles on the chain's answer, sending it (again) while it may still land. */
  async function follow(row: Pending, sponsorCannotPay: () => Promise<boolean>): Promise<'done' | 'failed' | 'waitingForSponsor' | undefined> {
    const prepared: PreparedTransfer = { txHash: row.tx_hash, wire: row.wire, lastValidBlockHeight: row.last_valid_block_height };
    let state = await chain.getSweepStatus(prepared);
    if (state.status === 'EXPIRED') return replaceExpired(row, prepared, sponsorCannotPay);
    if (state.status === 'PENDING' && !state.landed) {
      await chain.sendSweep(prepared);
      state = await chain.getSweepStatus(prepared);
    }
    if (state.status === 'CONFIRMED' || state.status === 'FAILED') return settle(row, prepared, { ...state, status: state.status });
    await repo.touch(db, row.deposit_address, clock.now());
    return undefined;
  }

  /** Runs `work` over `items`; false when the node failed (the pass ends; the next one retries). */
  async function each<T extends { order_id: string | null; payout_batch_id: string | null }>(items: T[], signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<boolean> {
    for (const item of items) {
      if (signal?.aborted) break;
      try {
        await work(item);
      } catch (err) {
        if (err instanceof ChainUnavailableError) {
          log?.warn({ err }, 'deposit sweeps: the node failed, retrying next pass');
          return false;
        }
        log?.warn({ err, ...ownerOf(item) }, 'deposit sweep: not advanced this pass');
      }
    }
    return true;
  }

  /** Once a minute at most while sweeps wait: the reason, the sponsor's address and balance, what to do. */
  function tellWaiting(funds: SponsorFunds, waiting: number): void {
    const now = clock.now().getTime();
    if (now - waitingLoggedAt < WAITING_LOG_SPACING_MS) return;
    waitingLoggedAt = now;
    log?.warn(
      { sponsor: funds.address, balance: funds.balance, sweepMinimum: funds.sweepMinimum, waitingSweeps: waiting },
      `deposit sweeps waiting: the sponsor holds ${funds.balance} SOL, less than the ${funds.sweepMinimum} one sweep needs; fund the sponsor's address`,
    );
  }

  /** Stored sweeps first (they may land), then new ones. */
  async function runPass(signal?: AbortSignal): Promise<SweepPassResult> {
    const result: SweepPassResult = { prepared: 0, done: 0, failed: 0, waitingForSponsor: 0, unavailable: false };
    // The sponsor's funds, read once per pass and only when a sweep is to be sent.
    let funds: Promise<SponsorFunds | undefined> | undefined;
    const sponsorCannotPay = async () => {
      // A reading that fails is not known: the sweeps go on (the node's failure shows in their own calls).
      funds ??= (deps.sponsorFunds?.() ?? Promise.resolve(undefined)).catch(() => undefined);
      const known = await funds;
      return known !== undefined && !known.canPaySweep;
    };
    const pending = await repo.pending(db, settings.batchSize);
    const followed = await each(pending, signal, async (row) => {
      const outcome = await follow(row, sponsorCannotPay);
      if (outcome) result[outcome] += 1;
    });
    if (followed) {
      const unswept = await repo.unswept(db, settings.batchSize);
      const started = await each(unswept, signal, async (row) => {
        if (await sponsorCannotPay()) result.waitingForSponsor += 1;
        else if (await start(row)) result.prepared += 1;
      });
      if (!started) result.unavailable = true;
    } else result.unavailable = true;
    const known = await funds;
    if (result.waitingForSponsor > 0 && known) tellWaiting(known, result.waitingForSponsor);
    return result;
  }

  return { runPass };
}

export type Sweeper = ReturnType<typeof createSweeper>;
