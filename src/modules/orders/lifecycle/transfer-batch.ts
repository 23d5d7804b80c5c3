/**
 * Batched PAYIN transfers (decision 0053, issue 44 item 1): one treasury transaction carries the
 * transfers of up to CHAIN_TRANSFER_BATCH_MAX orders of one token (as many as fit in 1,232 bytes),
 * with the exactly-once rules of a single transfer (transfer-steps.ts) held per batch:
 *
 * - PAYMENT_RECEIVED or SWAPPING (the leader, an order a lane claimed): claims its batch mates (PAYINs of the same
 *   chain and token, due and unclaimed, in PAYMENT_RECEIVED or SWAPPING), signs ONE transaction
 *   for all, and in ONE database transaction stores it (chain_transfer_batches) and moves every
 *   order to TRANSFERRING pointing at it (batch, instruction index). A guard that fails for any
 *   order rolls everything back: the signed bytes were never stored, so never sent.
 * - TRANSFERRING (any order of the batch; the leader runs it at once, the mates stay leased to
 *   its worker): asks the chain about the batch's transaction and
 *   - CONFIRMED: every order of the batch COMPLETED in one database transaction, each with its
 *     share of the fee and rent (lib/chain-cost-shares.ts);
 *   - FAILED: nothing moved (a transaction is atomic): with one order, REFUNDING as a single
 *     transfer's; with more, the batch is split in halves, each a new signed transaction stored
 *     (orders re-pointed, guarded by the failed signature) before it is sent, its fee carried to
 *     the first half. One refused destination ends alone after log2(N) splits; the others land.
 *   - PENDING: sent again while the node does not have it, as a single transfer;
 *   - EXPIRED (provably never lands): re-signed for the same orders, guarded by the old signature;
 *     past CHAIN_TRANSFER_MAX_ATTEMPTS, every order refunded.
 * A batch of one order prepared by the leader alone goes the single path (transfer-steps.ts).
 */
import { type ChainAdapter, ChainTransferRefusedError, type PreparedBatch, type PreparedTransfer, type TransferState } from '../../../adapters/chain/port.ts';
import type { Db, Trx } from '../../../db/database.ts';
import type { Clock } from '../../../lib/clock.ts';
import { shareChainCosts } from '../../../lib/chain-cost-shares.ts';
import { newId } from '../../../lib/ids.ts';
import { decimal } from '../../../lib/money.ts';
import { inTransaction } from '../../../platform/commit-signals.ts';
import { leaseEnd } from '../../../platform/leases.ts';
import type { OrderRow } from '../tables.ts';
import { type TransferBatchRow, transferBatchRepo as repo } from '../transfer-batch-repo.ts';
import { NOT_SENT_YET, RetryLater, type TransferLog, sendAndAsk } from './transfer-steps.ts';
import { type TransitionContext, applyTransitions } from './transitions.ts';

export interface TransferBatchDeps {
  db: Db;
  clock: Clock;
  chain: ChainAdapter;
  ctx: TransitionContext;
  leaseMs: number;
  /** CHAIN_TRANSFER_BATCH_MAX: orders per transaction at most (1: no batches). */
  maxBatch: number;
  maxAttempts: number;
  log?: TransferLog | undefined;
  /** As a single transfer's (transfer-steps.ts): the batch's signature watched for the order that found it pending. */
  watchTransfer?: ((orderId: string, txHash: string) => void) | undefined;
  afterTransferStored?: ((stored: { orders: number }) => void) | undefined;
  /** As a single transfer's (transfer-steps.ts): the treasury wallet a batch goes from; unset, wallet 1. */
  chooseWallet?: ((token: string, amount: string) => Promise<number>) | undefined;
}

/** A guard of the batch's transaction failed: everything rolls back, nothing signed was stored. */
class BatchRace extends Error {}

/** A guard failed for one of `orders` (undefined in its place): the whole batch's transaction rolls back. */
function raceIfAnyLost(orders: readonly OrderRow[], rows: ReadonlyArray<OrderRow | undefined>) {
  const lost = orders.find((_, i) => rows[i] === undefined);
  if (lost) throw new BatchRace(`order ${lost.id} moved while its batch was signed`);
}

const claimOf = (order: OrderRow) => ({ claimed_by: order.claimed_by, claimed_until: order.claimed_until });
const intentOf = (order: OrderRow) => ({ reference: order.id, token: order.token, amount: order.amount_token, destination: order.destination_wallet! });
const transferOf = (order: OrderRow, txHash: string) => ({ amount: order.amount_token, currency: order.token, chain: order.chain, txHash });
const preparedOf = (batch: TransferBatchRow): PreparedTransfer => ({ txHash: batch.tx_hash, wire: batch.wire, lastValidBlockHeight: String(batch.last_valid_block_height) });

export function createTransferBatches(deps: TransferBatchDeps) {
  const { db, clock, chain, ctx, leaseMs } = deps;
  const prepareBatch = chain.prepareTransferBatch?.bind(chain);
  /** Leaders' rows returned by a store a moment ago: their batch was never sent (transfer-steps.ts, NOT_SENT_YET). */
  const unsent = new WeakSet<OrderRow>();

  /** Gives claimed mates back, due at once, for any lane (they were not put in a batch). */
  const release = (orders: readonly OrderRow[]) => repo.releaseMates(db, orders, clock.now());

  /** Signs one transaction for `members` from `wallet`, leaving out (and releasing) a mate refused or beyond the size limit. */
  async function prepareFor(leader: OrderRow, mates: OrderRow[], wallet: number): Promise<{ prepared: PreparedBatch; members: OrderRow[] } | undefined> {
    let members = [leader, ...mates];
    for (;;) {
      try {
        const prepared = await prepareBatch!(members.map(intentOf), wallet);
        const included = members.slice(0, prepared.instructionIndexes.length);
        await release(members.slice(included.length));
        return { prepared, members: included };
      } catch (err) {
        const refused = err instanceof ChainTransferRefusedError ? members.find((m) => m.id === err.reference) : undefined;
        // A mate no transfer can carry goes alone (the single path refunds it); the leader's, or any other failure, ends the batch.
        if (!refused || refused === leader || members.length <= 2) {
          await release(members.slice(1));
          if (err instanceof ChainTransferRefusedError) return undefined;
          throw err;
        }
        await release([refused]);
        members = members.filter((m) => m !== refused);
      }
    }
  }

  /** The batch stored and every order TRANSFERRING on it, in one transaction; the leader's row (still claimed) back. */
  function store(leader: OrderRow, members: OrderRow[], prepared: PreparedBatch, wallet: number): Promise<OrderRow> {
    const now = clock.now();
    const batchId = newId();
    const claimedUntil = leaseEnd(now, leaseMs);
    return inTransaction(db, async (trx: Trx) => {
      await repo.insert(trx, {
        id: batchId,
        chain: leader.chain,
        token: leader.token,
        tx_hash: prepared.txHash,
        wire: prepared.wire,
        last_valid_block_height: prepared.lastValidBlockHeight,
        status: 'PENDING',
        attempt: 1,
        order_ids: members.map((m) => m.id),
        account_creators: prepared.accountCreators,
        created_at: now,
        updated_at: now,
      });
      // Every member's transition in one call (a few statements for the batch); a leader or mate
      // still PAYMENT_RECEIVED passes through SWAPPING in the same UPDATE of its row, and each
      // transfer's record is written pointing at the batch and its instruction.
      const moved = await applyTransitions(
        trx,
        ctx,
        members.map((row, i) => ({
          order: row,
          to: 'TRANSFERRING',
          ...(row.status === 'PAYMENT_RECEIVED' ? { through: 'SWAPPING' as const } : {}),
          facts: {
            changes: { tx_hash: prepared.txHash, treasury_wallet: wallet },
            moved: { ...transferOf(row, prepared.txHash), batch: { id: batchId, instructionIndex: prepared.instructionIndexes[i]! } },
            underClaim: claimOf(row),
            claimedUntil,
          },
        })),
      );
      raceIfAnyLost(members, moved);
      return moved[0]!;
    });
  }

  /**
   * SWAPPING with batch mates: answers undefined when there is no batch to make (no mates, or the
   * adapter has no batches), and the single path runs.
   */
  async function swapInBatch(leader: OrderRow): Promise<{ next: OrderRow | undefined } | undefined> {
    if (!prepareBatch || deps.maxBatch <= 1) return undefined;
    const mates = await repo.claimMates(db, leader, clock.now(), deps.maxBatch - 1, leaseMs);
    if (mates.length === 0) return undefined;
    const total = [leader, ...mates].reduce((sum, order) => sum.plus(order.amount_token), decimal(0)).toString();
    const wallet = (await deps.chooseWallet?.(leader.token, total)) ?? 1;
    const made = await prepareFor(leader, mates, wallet);
    if (!made) return undefined;
    if (made.members.length === 1) {
      await release(mates);
      return undefined;
    }
    try {
      const next = await store(leader, made.members, made.prepared, wallet);
      deps.afterTransferStored?.({ orders: made.members.length });
      unsent.add(next);
      return { next };
    } catch (err) {
      // Nothing was stored (one transaction): the mates go back to the queue whatever failed (a
      // guard, a deadlock), or they would wait out the lease taken for them.
      await release(made.members.slice(1));
      throw err instanceof BatchRace ? new RetryLater(err.message) : err;
    }
  }

  /** CONFIRMED or FAILED alone: every order still on the batch moves, each with its share of the costs. */
  async function settle(batch: TransferBatchRow, state: TransferState, to: 'COMPLETED' | 'REFUNDING') {
    const now = clock.now();
    const totals = { feeLamports: BigInt(state.costs?.feeLamports ?? '0') + BigInt(batch.carried_fee_lamports), rentLamports: BigInt(state.costs?.rentLamports ?? '0') };
    const shares = shareChainCosts(batch.order_ids, batch.account_creators, totals);
    await inTransaction(db, async (trx) => {
      await repo.settle(trx, batch.id, to === 'COMPLETED' ? 'CONFIRMED' : 'FAILED', now);
      const reason = `On-chain transfer failed: ${state.error ?? 'unknown error'}`;
      const moves = (await repo.lockMembers(trx, batch)).map((member) => {
        const chainCosts = shares.get(member.id) ?? { feeLamports: 0n, rentLamports: 0n };
        const moved = transferOf(member, batch.tx_hash);
        const facts = to === 'COMPLETED' ? { changes: { tx_hash: batch.tx_hash }, moved, chainCosts } : { changes: { failure_reason: reason }, moved, chainCosts, reason };
        return { order: member, to, facts: { ...facts, underClaim: claimOf(member) } };
      });
      await applyTransitions(trx, ctx, moves);
    });
    return undefined;
  }

  /**
   * Replaces a batch that can no longer land as it is (FAILED: `parts` halves; EXPIRED: one part,
   * the same orders) by new signed transactions, stored before they are sent; guarded by the old
   * batch still PENDING and each order still on its signature.
   */
  async function rebatch(batch: TransferBatchRow, members: OrderRow[], why: { to: 'FAILED' | 'EXPIRED'; parts: number; carriedFee: bigint }, current: OrderRow): Promise<never> {
    const size = Math.ceil(members.length / why.parts);
    const groups = Array.from({ length: why.parts }, (_, i) => members.slice(i * size, (i + 1) * size)).filter((g) => g.length > 0);
    // From the wallet that signed the batch: its orders' books and in-flight counts name it.
    const wallet = members[0]?.treasury_wallet ?? 1;
    const prepared = await Promise.all(groups.map((group) => prepareBatch!(group.map(intentOf), wallet)));
    if (prepared.some((p, i) => p.instructionIndexes.length !== groups[i]!.length)) throw new Error(`a re-signed part of batch ${batch.id} no longer fits one transaction`);
    const now = clock.now();
    const stored = await inTransaction(db, async (trx) => {
      if (!(await repo.settle(trx, batch.id, why.to, now))) return false;
      for (const [i, group] of groups.entries()) {
        const next = prepared[i]!;
        const id = newId();
        await repo.insert(trx, {
          id,
          chain: batch.chain,
          token: batch.token,
          tx_hash: next.txHash,
          wire: next.wire,
          last_valid_block_height: next.lastValidBlockHeight,
          status: 'PENDING',
          attempt: why.to === 'EXPIRED' ? batch.attempt + 1 : batch.attempt,
          order_ids: group.map((m) => m.id),
          account_creators: next.accountCreators,
          // What the old batch carried and its own fee, to the first part only: each lamport once.
          carried_fee_lamports: i === 0 ? String(BigInt(batch.carried_fee_lamports) + why.carriedFee) : '0',
          created_at: now,
          updated_at: now,
        });
        for (const member of group) {
          if (!(await repo.retarget(trx, member.id, batch.tx_hash, next.txHash, now))) throw new BatchRace(`order ${member.id} left batch ${batch.id}`);
          // The others are due at once for any lane: each part has its own status to follow.
          if (member.id !== current.id) await repo.dueForAnyLane(trx, member.id, now);
        }
        await repo.point(trx, id, next.txHash, group.map((m, j) => ({ orderId: m.id, instructionIndex: next.instructionIndexes[j]!, previousTxHash: batch.tx_hash })), now);
      }
      return true;
    }).catch((err: unknown) => (err instanceof BatchRace ? false : Promise.reject(err)));
    if (stored) {
      deps.log?.warn({ batchId: batch.id, txHash: batch.tx_hash, orders: members.length, parts: groups.length, outcome: why.to }, `PAYIN transfer batch ${why.to === 'FAILED' ? 'failed on chain: split' : 'expired unlanded: re-signed'}`);
      for (const next of prepared) await chain.sendTransfer(next);
    }
    throw new RetryLater(stored ? `transfer batch ${why.to.toLowerCase()}: replaced and sent` : 'transfer batch replaced by another worker');
  }

  /** Past the last attempt, every order of an expired batch is refunded (the tokens never left the treasury). */
  async function giveUpExpired(batch: TransferBatchRow) {
    const reason = `On-chain transfer abandoned: ${batch.attempt} transactions expired without landing; the tokens never left the treasury`;
    await inTransaction(db, async (trx) => {
      await repo.settle(trx, batch.id, 'EXPIRED', clock.now());
      const members = await repo.lockMembers(trx, batch);
      await applyTransitions(
        trx,
        ctx,
        members.map((member) => ({ order: member, to: 'REFUNDING', facts: { changes: { failure_reason: reason }, moved: transferOf(member, batch.tx_hash), reason, whileTxHash: batch.tx_hash, underClaim: claimOf(member) } })),
      );
    });
    deps.log?.error({ batchId: batch.id, attempts: batch.attempt, lastTxHash: batch.tx_hash }, `PAYIN transfer batch given up, orders refunded: ${reason}`);
    return undefined;
  }

  /** TRANSFERRING on a batch: answers undefined when the order's transfer is its own (the single path runs). */
  async function confirmInBatch(order: OrderRow): Promise<{ next: OrderRow | undefined } | undefined> {
    const batch = await repo.ofOrder(db, order.id);
    if (!batch) return undefined;
    const prepared = preparedOf(batch);
    let state = unsent.delete(order) ? NOT_SENT_YET : await chain.getTransferStatus(prepared);
    if (state.status === 'PENDING' && !state.landed) state = await sendAndAsk(chain, prepared);
    const members = () => inTransaction(db, (trx) => repo.lockMembers(trx, batch));
    if (state.status === 'EXPIRED') {
      if (batch.attempt >= deps.maxAttempts) return { next: await giveUpExpired(batch) };
      return rebatch(batch, await members(), { to: 'EXPIRED', parts: 1, carriedFee: 0n }, order);
    }
    if (state.status === 'PENDING') {
      deps.watchTransfer?.(order.id, batch.tx_hash);
      throw new RetryLater('transfer batch not confirmed yet');
    }
    if (state.status === 'CONFIRMED') return { next: await settle(batch, state, 'COMPLETED') };
    const left = await members();
    if (left.length <= 1) return { next: await settle(batch, state, 'REFUNDING') };
    return rebatch(batch, left, { to: 'FAILED', parts: 2, carriedFee: BigInt(state.costs?.feeLamports ?? '0') }, order);
  }

  return { swapInBatch, confirmInBatch };
}
