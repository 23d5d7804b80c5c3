/**
 * The one way an order's status changes after creation. Notifications (notifications.ts), the
 * worker's steps (steps.ts, transfer-steps.ts), operators (operator-actions-service.ts) and MED
 * claims (dispute-claims.ts) call `applyTransition` with the facts of the call; what the
 * transition does is its edge's declaration in the order process (process.ts), so every change
 * gets the same guard, bookkeeping, ledger entry and event, in the caller's transaction.
 */
import { afterCommit, signalAfterCommit } from '../../../platform/commit-signals.ts';
import type { Trx } from '../../../db/database.ts';
import { type OutboxEvent, recordEvents } from '../../../platform/outbox.ts';
import type { OrderRow, StoredOrderStatus } from '../tables.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { LedgerService, OrderEntry } from '../../ledger/service.ts';
import { type ConfirmedMovement, isRegistered, type RegisteredOrder, type RegisterSealing, registerMovements } from '../../operations-register/record.ts';
import type { EventContext } from './process-events.ts';
import { type ProcessEdge, processEdge } from './process.ts';
import { type MovementRecord, ordersRepo as repo } from '../repo.ts';
import { unprovenWalletUsage } from '../creation/unproven-wallet-usage.ts';
import type { Movement, TransitionFacts } from './transition-facts.ts';
import { ORDER_MOVED, type OrderLog, movedLine } from '../lifecycle-log.ts';

export type { Movement, MovementFigures, TransitionFacts } from './transition-facts.ts';

/**
 * The PAYIN steps towards its token transfer: none applies while a MED claim holds the order
 * (disputes module), so a worker that read the row before the hold cannot send the tokens.
 */
const TOWARDS_TRANSFER: readonly StoredOrderStatus[] = ['SWAPPING', 'TRANSFERRING'];

/** Published after a transition that left a step due at once: workers run it without waiting for their sweep. */
export const ORDER_STEPS_CHANNEL = 'order_steps';

export interface TransitionContext extends EventContext {
  clock: Clock;
  ledger: Pick<LedgerService, 'postOrderEntries'>;
  /** Told of every change, so caches of the merchant's orders (the GET /orders pages) drop what they hold. */
  onOrderChanged?: ((merchantId: string) => void) | undefined;
  /** Opens what events name, and seals what the operations register is given clear (a wallet address). */
  personalData: EventContext['personalData'] & RegisterSealing;
  /** Told of every change once it has committed, one "order moved" line each (lifecycle-log.ts). */
  log?: OrderLog | undefined;
}

const named = (edge: Pick<ProcessEdge, 'type' | 'from' | 'to'>) => `${edge.type} ${edge.from} → ${edge.to}`;

/** The edge's declaration; an edge the state machine does not have is a programming error. */
function edgeOf(order: Pick<OrderRow, 'type' | 'status'>, to: StoredOrderStatus): ProcessEdge {
  const edge = processEdge(order.type, order.status, to);
  if (!edge) throw new Error(`illegal ${order.type} transition ${order.status} → ${to}`);
  return edge;
}

/** Whether the transition leaves the order's next step due at once (not later, not waiting for a notification). */
export const leavesStepDue = (order: Pick<OrderRow, 'type' | 'status'>, to: StoredOrderStatus) => edgeOf(order, to).next === 'at once';

/** The movements the edge declares, with the call's figures; a missing or extra one is a programming error. */
function movementsOf(edge: ProcessEdge, facts: TransitionFacts): Movement[] {
  const declared = edge.movements ?? [];
  const figures = facts.moved === undefined ? [] : [facts.moved].flat();
  const missing = declared.slice(figures.length).find((movement) => movement.when === undefined);
  if (figures.length > declared.length || missing) throw new Error(`${named(edge)} records ${declared.length} movement(s), given ${figures.length}`);
  return figures.map((figure, i) => ({ type: declared[i]!.type, status: declared[i]!.status, ...figure }));
}

function chainCostsOf(edge: ProcessEdge, facts: TransitionFacts) {
  if (edge.chainCosts === 'always' && !facts.chainCosts) throw new Error(`${named(edge)} posts the chain's costs: none given`);
  if (!edge.chainCosts && facts.chainCosts) throw new Error(`${named(edge)} posts no chain costs`);
  return facts.chainCosts;
}

/**
 * What the order's creation reserved on its day: the receiver's limits, and under LIMITED its
 * unproven wallet's total (unproven-wallet-usage.ts) when it took one. One release for both, so
 * both follow the edges' `releasesLimit` and the once-only `limit_released`.
 */
async function giveTheDayBack(trx: Trx, order: OrderRow) {
  const day = order.limit_day;
  await repo.releaseDailyUsage(trx, { receiverId: order.receiver_id, day, amountBrl: order.amount_brl });
  if (order.unproven_wallet_reserved && order.destination_wallet) {
    await unprovenWalletUsage.release(trx, { merchantId: order.merchant_id, wallet: order.destination_wallet, day, amountBrl: order.amount_brl });
  }
}

/** One order's change for applyTransitions. */
export interface OrderMove {
  order: OrderRow;
  to: StoredOrderStatus;
  facts?: TransitionFacts;
  /**
   * A status passed through on the way to `to`: both edges' effects, and one guarded UPDATE of the
   * row, never stored in between (a batch's PAYINs from PAYMENT_RECEIVED through SWAPPING to
   * TRANSFERRING: an UPDATE that changes an order's status writes a new entry in each of the
   * table's indexes whose predicate the row meets). Its edge takes no facts.
   */
  through?: StoredOrderStatus;
}

/** The edges a move takes, each from the row as it would stand before it, with its own facts. */
function edgesOf({ order, to, facts = {}, through }: OrderMove) {
  const legs = through === undefined ? [{ from: order, to, facts }] : [{ from: order, to: through, facts: {} }, { from: { ...order, status: through }, to, facts }];
  return legs.map(({ from, to: next, facts: legFacts }) => {
    const edge = edgeOf(from, next);
    return { from, edge, facts: legFacts, movements: movementsOf(edge, legFacts), chainCosts: chainCostsOf(edge, legFacts) };
  });
}

/**
 * Moves `order` from its current status to `to`, guarded: if another transaction moved it first,
 * nothing is written and undefined is returned. In the same transaction it does what the edge
 * declares (process.ts): records the movements, gives the day's limits back, registers
 * a confirmed movement in the operations register, posts the ledger entry and the chain's costs,
 * writes the event with exactly the spec's fields and schedules the next step; once the
 * transaction has committed, the change's log line is written (never for one that rolled back).
 */
export async function applyTransition(trx: Trx, ctx: TransitionContext, order: OrderRow, to: StoredOrderStatus, facts: TransitionFacts = {}) {
  return (await applyTransitions(trx, ctx, [{ order, to, facts }]))[0];
}

/**
 * applyTransition for several orders in one transaction, each guarded on its own (undefined in
 * its place when another transaction moved it first). The movements' records, the ledger entries
 * and the events of all of them are written together, one statement each, after the orders' rows:
 * a batch of transfers' 20 transitions cost some 120 statements one by one (bench
 * chain-payin-backlog).
 */
export async function applyTransitions(trx: Trx, ctx: TransitionContext, moves: readonly OrderMove[]): Promise<Array<OrderRow | undefined>> {
  const now = ctx.clock.now();
  const planned = moves.map((move) => {
    const { order, to, facts = {} } = move;
    const edges = edgesOf(move);
    const releasesLimit = edges.some(({ edge }) => edge.releasesLimit === true) && !order.limit_released;
    const dueAtOnce = edges.at(-1)!.edge.next === 'at once';
    const changes = {
      ...facts.changes,
      status: to,
      ...(to === 'COMPLETED' ? { completed_at: now } : {}),
      ...(releasesLimit ? { limit_released: true } : {}),
      next_step_at: dueAtOnce ? now : null,
      step_attempts: 0,
      claimed_until: facts.claimedUntil ?? null,
      claimed_by: facts.claimedUntil ? (facts.underClaim?.claimed_by ?? null) : null,
    };
    return { order, facts, edges, releasesLimit, dueAtOnce, changes, guard: { txHash: facts.whileTxHash, notHeld: TOWARDS_TRANSFER.includes(to) } };
  });
  const updatedRows = await guardedUpdates(trx, planned, now);
  const results: Array<OrderRow | undefined> = [];
  const records: MovementRecord[] = [];
  const entries: OrderEntry[] = [];
  const events: OutboxEvent[] = [];
  const registered: Array<{ order: RegisteredOrder; movement: ConfirmedMovement }> = [];
  for (const { order, facts, edges, releasesLimit, dueAtOnce } of planned) {
    const updated = updatedRows.get(order.id);
    results.push(updated);
    if (!updated) continue;
    const { log } = ctx;
    if (log) {
      const lines = edges.map(({ from, edge, movements }) => movedLine(from, edge.to === updated.status ? updated : { ...updated, status: edge.to }, movements[0]));
      afterCommit(trx, () => lines.forEach((line) => log.info(line, ORDER_MOVED)));
    }
    if (dueAtOnce && !facts.claimedUntil) signalAfterCommit(trx, ORDER_STEPS_CHANNEL);
    // After commit: cleared before it, a listing read in between would cache the old status again.
    const { onOrderChanged } = ctx;
    if (onOrderChanged) afterCommit(trx, () => onOrderChanged(order.merchant_id));
    if (releasesLimit) await giveTheDayBack(trx, order);
    for (const { from, edge, facts: edgeFacts, movements, chainCosts } of edges) {
      for (const movement of movements) {
        records.push({ orderId: order.id, ...movement, chain: movement.chain ?? null, txHash: movement.txHash ?? null });
        // The operations register: once per movement, when it is confirmed (a PENDING transfer is registered by its CONFIRMED record).
        if (movement.status === 'CONFIRMED' && isRegistered(movement.type)) {
          registered.push({ order: updated, movement: { type: movement.type, amount: movement.amount, txHash: movement.txHash ?? null } });
        }
      }
      if (edge.ledger) entries.push({ order: updated, movement: edge.ledger.movement, received: edge.ledger.received ? movements[0]?.amount : undefined });
      if (chainCosts) entries.push({ order: updated, chainCosts });
      if (edge.event) {
        events.push({
          merchantId: order.merchant_id,
          event: edge.event.name,
          payload: {
            orderId: order.id,
            externalId: order.external_id,
            type: order.type,
            status: edge.event.status,
            timestamp: now.toISOString(),
            ...edge.event.fields({ order: from, moved: movements[0], facts: edgeFacts, ctx }),
          },
        });
      }
    }
  }
  await repo.recordTransactions(trx, records, now);
  await registerMovements(trx, ctx.personalData, registered, now);
  await ctx.ledger.postOrderEntries(trx, entries, now);
  await recordEvents(trx, events, ctx.personalData);
  return results;
}

type PlannedMove = { order: OrderRow; facts: TransitionFacts; changes: Record<string, unknown>; guard: { txHash: string | undefined; notHeld: boolean } };

/**
 * The orders' guarded UPDATEs: one statement per set of moves making the same changes under the
 * same signature and hold guards (a batch's members), each row guarded by its own status and claim.
 */
async function guardedUpdates(trx: Trx, planned: readonly PlannedMove[], now: Date): Promise<Map<string, OrderRow>> {
  const updated = new Map<string, OrderRow>();
  if (new Set(planned.map((move) => move.order.id)).size !== planned.length) throw new Error('an order moved twice in one applyTransitions');
  const groups = new Map<string, PlannedMove[]>();
  for (const move of planned) {
    const key = JSON.stringify([move.changes, move.guard], (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
    groups.set(key, [...(groups.get(key) ?? []), move]);
  }
  for (const group of groups.values()) {
    const { changes, guard } = group[0]!;
    const rows = await repo.transitionAll(trx, group.map(({ order, facts }) => ({ id: order.id, from: order.status, claim: facts.underClaim })), changes, now, guard);
    for (const row of rows) updated.set(row.id, row);
  }
  return updated;
}

/** Whether a movement is written to the operations register (the rule above, for the rendered table). */
export const registersMovement = (movement: Pick<Movement, 'type' | 'status'>) => movement.status === 'CONFIRMED' && isRegistered(movement.type);
