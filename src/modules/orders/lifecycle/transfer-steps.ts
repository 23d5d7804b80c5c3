/**
 * A PAYIN's token transfer, exactly once through crashes (docs/architecture/chain.md, "Exactly
 * one transfer per order"). SWAPPING prepares a signed transaction and moves to TRANSFERRING with
 * it stored in the order's CHAIN_TRANSFER row: committed before anything is sent. TRANSFERRING
 * asks the chain about the stored transaction and
 * - CONFIRMED: COMPLETED, posting what the chain charged;
 * - FAILED: REFUNDING (the fee was paid: posted too);
 * - PENDING, unknown to the chain: sends the same bytes again (a crash before the first send, a dropped transaction)
 *   and asks once more, else waits;
 * - EXPIRED (it provably can never land): prepares another and replaces the stored one, guarded
 *   by the old signature, then sends it. Never a new transaction while the old one might land.
 *   After `maxAttempts` transactions expired so, the order is refunded instead (the tokens never
 *   left the treasury): a treasury without SOL for fees, or a node that drops every send, is an
 *   operator's problem, not one to retry forever.
 * A refusal of the transfer itself (ChainTransferRefusedError: nothing signed) refunds the order
 * too; a node that cannot be reached only makes the step back off.
 * Every step runs under the worker's claim, and every write is a guarded transition.
 */
import { type ChainAdapter, ChainTransferRefusedError, type PreparedTransfer, type TransferState } from '../../../adapters/chain/port.ts';
import type { Db } from '../../../db/database.ts';
import type { Clock } from '../../../lib/clock.ts';
import { inTransaction } from '../../../platform/commit-signals.ts';
import { ordersRepo as repo } from '../repo.ts';
import type { TransferMetrics } from './metrics.ts';
import type { OrderRow, StoredOrderStatus } from '../tables.ts';
import type { MovementFigures, TransitionFacts } from './transitions.ts';

/** A step that must simply wait (e.g. a transfer not yet confirmed), not a failure. */
export class RetryLater extends Error {}

type MoveOn = (order: OrderRow, to: StoredOrderStatus, facts?: TransitionFacts) => Promise<OrderRow | undefined>;

const lamports = (text: string | undefined) => BigInt(text ?? '0');

/** Where a rebuilt transfer (warn) and a transfer given up (error) are told; never a key or a signed transaction. */
export interface TransferLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface TransferStepsDeps {
  db: Db;
  clock: Clock;
  chain: ChainAdapter;
  moveOn: MoveOn;
  /** Transactions an order may sign before it is refunded, each expired unlanded (CHAIN_TRANSFER_MAX_ATTEMPTS). */
  maxAttempts: number;
  log?: TransferLog | undefined;
  metrics?: TransferMetrics | undefined;
  /** Told of a transfer left pending, to wake its order when the node notifies it (transfer-wakeups.ts); unset, the retries poll. */
  watchTransfer?: ((orderId: string, txHash: string) => void) | undefined;
  /** Test-only: called once a signed transfer is committed, before its first send (main.ts, NODE_ENV=test). */
  afterTransferStored?: ((stored: { orders: number }) => void) | undefined;
  /** The treasury wallet a transfer of these tokens goes from (liquidity.ts chooseWallet, decision 0057); unset, wallet 1. */
  chooseWallet?: ((token: string, amount: string) => Promise<number>) | undefined;
}

/**
 * What the node would answer about a transaction stored a moment ago by the step the worker just
 * ran, before anything sent it: asking would cost three RPC calls and round trips before the send
 * (a signature the node does not know: its status, the height, its status again). A transaction
 * found again later (another pass, another worker) is asked about.
 */
export const NOT_SENT_YET: TransferState = { status: 'PENDING' };

/**
 * Sends the stored transaction (again) and answers its state after the send: pending, unasked, on
 * a chain where it lands only in a later slot (ChainAdapter.landsAfterSend): the next pass asks,
 * woken by its signature's subscription or by the back-off.
 */
export async function sendAndAsk(chain: ChainAdapter, prepared: PreparedTransfer): Promise<TransferState> {
  await chain.sendTransfer(prepared);
  return chain.landsAfterSend ? { status: 'PENDING' } : chain.getTransferStatus(prepared);
}

export function createTransferSteps(deps: TransferStepsDeps) {
  const { db, clock, chain, moveOn, maxAttempts, log, metrics } = deps;

  const intentOf = (order: OrderRow) => ({ reference: order.id, token: order.token, amount: order.amount_token, destination: order.destination_wallet! });
  /** The order's CHAIN_TRANSFER movement: its tokens from the treasury, under this signature (null: none signed). */
  const transferOf = (order: OrderRow, txHash: string | null): MovementFigures => ({ amount: order.amount_token, currency: order.token, chain: order.chain, txHash });

  /**
   * No transfer will ever land for the order: it goes to REFUNDING (the PIX is returned). Only
   * when none can: nothing was signed (`refused`), or the stored one provably expired unlanded
   * (`expired`, guarded by its signature).
   */
  async function giveUp(order: OrderRow, why: { kind: 'refused' | 'expired'; reason: string; detail: object; expiredTxHash?: string }) {
    const moved = await moveOn(order, 'REFUNDING', {
      changes: { failure_reason: why.reason },
      moved: transferOf(order, why.expiredTxHash ?? null),
      reason: why.reason,
      ...(why.expiredTxHash ? { whileTxHash: why.expiredTxHash } : {}),
    });
    if (!moved) return undefined;
    metrics?.abandoned.inc({ reason: why.kind });
    log?.error({ orderId: order.id, ...why.detail }, `PAYIN transfer given up, order refunded: ${why.reason}`);
    return moved;
  }

  const refused = (order: OrderRow, err: ChainTransferRefusedError, expiredTxHash?: string) =>
    giveUp(order, {
      kind: 'refused',
      reason: 'On-chain transfer refused before signing; the tokens never left the treasury',
      detail: { refusal: err.message },
      ...(expiredTxHash ? { expiredTxHash } : {}),
    });

  /** Rows this worker moved to TRANSFERRING a moment ago: their transaction is stored and was never sent. */
  const unsent = new WeakSet<OrderRow>();

  /** SWAPPING: the rate was locked at creation; the conversion is the transfer, prepared and stored here, sent by the next step. */
  async function swap(order: OrderRow) {
    const wallet = (await deps.chooseWallet?.(order.token, order.amount_token)) ?? 1;
    let prepared: PreparedTransfer;
    try {
      prepared = await chain.prepareTransfer(intentOf(order), wallet);
    } catch (err) {
      // No retry cures a refusal; anything else (the node unreachable) backs off and retries.
      if (err instanceof ChainTransferRefusedError) return refused(order, err);
      throw err;
    }
    const next = await moveOn(order, 'TRANSFERRING', {
      changes: { tx_hash: prepared.txHash, treasury_wallet: wallet },
      moved: { ...transferOf(order, prepared.txHash), prepared: { wire: prepared.wire, lastValidBlockHeight: prepared.lastValidBlockHeight } },
    });
    deps.afterTransferStored?.({ orders: 1 });
    if (next) unsent.add(next);
    return next;
  }

  /** The order's stored transaction and its attempt; before migration 0023 only the signature was kept (the sandbox answers by it). */
  async function storedTransfer(order: OrderRow): Promise<{ prepared: PreparedTransfer; attempt: number }> {
    const stored = await repo.chainTransferOf(db, order.id);
    if (stored) {
      const { attempt, ...prepared } = stored;
      return { prepared, attempt };
    }
    if (!order.tx_hash) throw new Error(`order ${order.id} is TRANSFERRING without a transaction`);
    return { prepared: { txHash: order.tx_hash, wire: '', lastValidBlockHeight: '0' }, attempt: 1 };
  }

  /**
   * EXPIRED: another transaction replaces the stored one (only if it is still the stored one), then
   * is sent; past the last attempt, the order is refunded instead.
   */
  async function replaceExpired(order: OrderRow, expired: PreparedTransfer, attempt: number) {
    if (attempt >= maxAttempts) {
      return giveUp(order, {
        kind: 'expired',
        reason: `On-chain transfer abandoned: ${attempt} transactions expired without landing; the tokens never left the treasury`,
        detail: { attempts: attempt, maxAttempts, lastTxHash: expired.txHash },
        expiredTxHash: expired.txHash,
      });
    }
    let next: PreparedTransfer;
    try {
      // From the same wallet: the order's books and the reconciliation's in-flight count name it.
      next = await chain.prepareTransfer(intentOf(order), order.treasury_wallet ?? 1);
    } catch (err) {
      if (err instanceof ChainTransferRefusedError) return refused(order, err, expired.txHash);
      throw err;
    }
    const replaced = await inTransaction(db, (trx) => repo.replaceChainTransfer(trx, order.id, expired.txHash, next, clock.now(), order));
    if (replaced) {
      metrics?.rebuilt.inc();
      log?.warn({ orderId: order.id, attempt: attempt + 1, maxAttempts, expiredTxHash: expired.txHash, txHash: next.txHash }, 'PAYIN transfer expired without landing: rebuilt');
      await chain.sendTransfer(next);
    }
    throw new RetryLater(replaced ? 'transfer expired unlanded: replaced and sent' : 'transfer replaced by another worker');
  }

  function settle(order: OrderRow, prepared: PreparedTransfer, status: 'CONFIRMED' | 'FAILED', state: TransferState) {
    const { error, costs } = state;
    const moved = transferOf(order, prepared.txHash);
    // It landed, so the chain charged the treasury whichever way it ended.
    const chainCosts = { feeLamports: lamports(costs?.feeLamports), rentLamports: lamports(costs?.rentLamports) };
    if (status === 'CONFIRMED') return moveOn(order, 'COMPLETED', { changes: { tx_hash: prepared.txHash }, moved, chainCosts });
    const reason = `On-chain transfer failed: ${error ?? 'unknown error'}`;
    return moveOn(order, 'REFUNDING', { changes: { failure_reason: reason }, moved, chainCosts, reason });
  }

  /** TRANSFERRING: settles on the stored transaction's status, sending it (again) while it may still land. */
  async function confirmTransfer(order: OrderRow) {
    const { prepared, attempt } = await storedTransfer(order);
    let state = unsent.delete(order) ? NOT_SENT_YET : await chain.getTransferStatus(prepared);
    if (state.status === 'EXPIRED') return replaceExpired(order, prepared, attempt);
    // A transaction the chain already has only waits for its commitment: re-sending it would cost an RPC call per pass.
    if (state.status === 'PENDING' && !state.landed && prepared.wire !== '') state = await sendAndAsk(chain, prepared);
    // Still pending (or, just sent, expired: the next pass acts on that).
    if (state.status !== 'CONFIRMED' && state.status !== 'FAILED') {
      if (state.status === 'PENDING') deps.watchTransfer?.(order.id, prepared.txHash);
      throw new RetryLater('transfer not confirmed yet');
    }
    return settle(order, prepared, state.status, state);
  }

  return { swap, confirmTransfer };
}
