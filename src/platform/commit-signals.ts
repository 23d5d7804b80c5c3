/**
 * Signals that leave a transaction only once it has committed. A write that others wait for (an
 * outbox event, an order step now due) calls `signalAfterCommit(trx, channel)` where it writes; the
 * signal is held with the transaction and handed to the listeners of its database after COMMIT
 * (never on rollback). Called outside a transaction, the statement has already committed, so the
 * signal goes at once. The composition root forwards signals to the notifications hub.
 *
 * A transaction that may signal is opened with `inTransaction(db, work)`: it is the one place that
 * knows when the commit happened. A signal raised in a transaction opened any other way throws, so
 * a forgotten call site fails loudly instead of leaving workers to the fallback sweep.
 */
import type { Db, Trx } from '../db/database.ts';

export type CommitListener = (channel: string, payload: string) => void;

const listenersOf = new WeakMap<Db, Set<CommitListener>>();
/** The signals each open transaction holds (only transactions opened by `inTransaction`). */
const heldBy = new WeakMap<Db, Map<string, [string, string]>>();

function emit(root: Db, signals: Iterable<[string, string]>) {
  const listeners = listenersOf.get(root);
  if (!listeners) return;
  for (const [channel, payload] of signals) for (const listener of listeners) listener(channel, payload);
}

/** Announces `channel` (with `payload`) to this database's listeners once `db`'s transaction commits. */
export function signalAfterCommit(db: Db, channel: string, payload = ''): void {
  if (!db.isTransaction) {
    emit(db, [[channel, payload]]);
    return;
  }
  const held = heldBy.get(db);
  if (!held) throw new Error(`signal ${channel} raised in a transaction not opened by inTransaction(): it would never be sent`);
  held.set(`${channel}\u0000${payload}`, [channel, payload]);
}

/** What each open transaction runs once it has committed (`afterCommit`; only transactions opened by `inTransaction`). */
const actionsOf = new WeakMap<Db, Array<() => void>>();

/**
 * Runs `action` once `db`'s transaction has committed, never on rollback; at once outside a
 * transaction. For what must not outrun the commit and cannot fail it: a log line that says a
 * change happened (a line for a change that rolled back is a lie). An action that throws is
 * dropped: the work has committed, and its caller must hear so.
 */
export function afterCommit(db: Db, action: () => void): void {
  if (!db.isTransaction) return runAll([action]);
  const actions = actionsOf.get(db);
  if (!actions) throw new Error('an after-commit action in a transaction not opened by inTransaction(): it would never run');
  actions.push(action);
}

function runAll(actions: Iterable<() => void>) {
  for (const action of actions) {
    try {
      action();
    } catch {
      // Dropped: see afterCommit.
    }
  }
}

/**
 * Runs `work` in one transaction of `root`; once it has committed, the signals it held go to
 * `root`'s listeners (on rollback they are dropped with it).
 */
export async function inTransaction<T>(root: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  const held = new Map<string, [string, string]>();
  const actions: Array<() => void> = [];
  const result = await root.transaction().execute((trx) => {
    heldBy.set(trx, held);
    actionsOf.set(trx, actions);
    return work(trx);
  });
  runAll(actions);
  if (held.size > 0) emit(root, held.values());
  return result;
}

/** Forwards the committed signals of `db`'s transactions to `listener`; returns the way to stop. */
export function forwardCommitSignals(db: Db, listener: CommitListener): () => void {
  let listeners = listenersOf.get(db);
  if (!listeners) {
    listeners = new Set();
    listenersOf.set(db, listeners);
  }
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** `work` in `outer` when the caller already holds a transaction (its signals go with it), else in a new one. */
export const withinOrNew = <T>(root: Db, outer: Trx | undefined, work: (trx: Trx) => Promise<T>): Promise<T> => (outer ? work(outer) : inTransaction(root, work));
