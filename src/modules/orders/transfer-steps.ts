/**
 * A PAYIN's token transfer, exactly once through crashes (docs/architecture/chain.md, "Exactly
 * one transfer per order"). SWAPPING prepares a signed transaction and moves to TRANSFERRING with
 * it stored in the order's CHAIN_TRANSFER row: committed before anything is sent. TRANSFERRING
 * asks the chain about the stored transaction and
 * - CONFIRMED: COMPLETED, posting what the chain charged;
 * - FAILED: REFUNDING (the fee was paid: posted too);
 * - PENDING: sends the same bytes again (a crash before the first send, a dropped transaction)
 *   and asks once more, else waits;
 * - EXPIRED (it provably can never land): prepares another and replaces the stored one, guarded
 *   by the old signature, then sends it. Never a new transaction while the old one might land.
 * Every step runs under the worker's claim, and every write is a guarded transition.
 */
import type { ChainAdapter, PreparedTransfer, TransferState } from '../../adapters/chain/port.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { toJsonNumber } from '../../lib/money.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import { ordersRepo as repo } from './repo.ts';
import type { OrderRow, StoredOrderStatus } from './tables.ts';
import { type Effects, type Movement, refundingEvent } from './transitions.ts';

/** A step that must simply wait (e.g. a transfer not yet confirmed), not a failure. */
export class RetryLater extends Error {}

type MoveOn = (order: OrderRow, to: StoredOrderStatus, effects?: Effects) => Promise<OrderRow | undefined>;

const lamports = (text: string | undefined) => BigInt(text ?? '0');

export function createTransferSteps(deps: { db: Db; clock: Clock; chain: ChainAdapter; moveOn: MoveOn }) {
  const { db, clock, chain, moveOn } = deps;

  const intentOf = (order: OrderRow) => ({ reference: order.id, token: order.token, amount: order.amount_token, destination: order.destination_wallet! });

  /** SWAPPING: the rate was locked at creation; the conversion is the transfer, prepared and stored here, sent by the next step. */
  async function swap(order: OrderRow) {
    const prepared = await chain.prepareTransfer(intentOf(order));
    return moveOn(order, 'TRANSFERRING', {
      changes: { tx_hash: prepared.txHash },
      movement: {
        type: 'CHAIN_TRANSFER',
        status: 'PENDING',
        amount: order.amount_token,
        currency: order.token,
        chain: order.chain,
        txHash: prepared.txHash,
        prepared: { wire: prepared.wire, lastValidBlockHeight: prepared.lastValidBlockHeight },
      },
      nextStepAt: clock.now(),
    });
  }

  /** The order's stored transaction; before migration 0023 only the signature was kept (the sandbox answers by it). */
  async function storedTransfer(order: OrderRow): Promise<PreparedTransfer> {
    const stored = await repo.chainTransferOf(db, order.id);
    if (stored) return stored;
    if (!order.tx_hash) throw new Error(`order ${order.id} is TRANSFERRING without a transaction`);
    return { txHash: order.tx_hash, wire: '', lastValidBlockHeight: '0' };
  }

  /** EXPIRED: another transaction replaces the stored one (only if it is still the stored one), then is sent. */
  async function replaceExpired(order: OrderRow, expired: PreparedTransfer): Promise<never> {
    const next = await chain.prepareTransfer(intentOf(order));
    const replaced = await inTransaction(db, (trx) => repo.replaceChainTransfer(trx, order.id, expired.txHash, next, clock.now()));
    if (replaced) await chain.sendTransfer(next);
    throw new RetryLater(replaced ? 'transfer expired unlanded: replaced and sent' : 'transfer replaced by another worker');
  }

  function settle(order: OrderRow, prepared: PreparedTransfer, status: 'CONFIRMED' | 'FAILED', state: TransferState) {
    const { error, costs } = state;
    const movement: Movement = { type: 'CHAIN_TRANSFER', status, amount: order.amount_token, currency: order.token, chain: order.chain, txHash: prepared.txHash };
    const chainCosts = { feeLamports: lamports(costs?.feeLamports), rentLamports: lamports(costs?.rentLamports) };
    if (status === 'CONFIRMED') {
      return moveOn(order, 'COMPLETED', {
        changes: { tx_hash: prepared.txHash },
        movement,
        ledger: { movement: 'PAYIN_COMPLETED' },
        chainCosts,
        event: {
          name: 'order.completed',
          status: 'COMPLETED',
          fields: { amountBrl: toJsonNumber(order.amount_brl), amountToken: toJsonNumber(order.amount_token), targetToken: order.token, destinationWallet: order.destination_wallet, txHash: prepared.txHash },
        },
      });
    }
    const reason = `On-chain transfer failed: ${error ?? 'unknown error'}`;
    return moveOn(order, 'REFUNDING', { changes: { failure_reason: reason }, movement, chainCosts, event: refundingEvent(reason), nextStepAt: clock.now() });
  }

  /** TRANSFERRING: settles on the stored transaction's status, sending it (again) while it may still land. */
  async function confirmTransfer(order: OrderRow) {
    const prepared = await storedTransfer(order);
    let state = await chain.getTransferStatus(prepared);
    if (state.status === 'EXPIRED') return replaceExpired(order, prepared);
    if (state.status === 'PENDING' && prepared.wire !== '') {
      await chain.sendTransfer(prepared);
      state = await chain.getTransferStatus(prepared);
    }
    // Still pending (or, just sent, expired: the next pass acts on that).
    if (state.status !== 'CONFIRMED' && state.status !== 'FAILED') throw new RetryLater('transfer not confirmed yet');
    return settle(order, prepared, state.status, state);
  }

  return { swap, confirmTransfer };
}
