/**
 * Signals that leave a transaction only once it has committed. A write that others wait for (an
 * outbox event, an order step now due) calls `signalAfterCommit(trx, channel)` where it writes; the
 * signal is held with the transaction and handed to the listeners of its database after COMMIT
 * (never on rollback). Called outside a transaction, the statement has already committed, so the
 * signal goes at once. The composition root forwards signals to the notifications hub.
 */
import type { Db } from '../db/database.ts';

export type CommitListener = (channel: string, payload: string) => void;

const listenersOf = new WeakMap<Db, Set<CommitListener>>();
const heldBy = new WeakMap<Db, Map<string, [string, string]>>();
const installed = new WeakSet<Db>();

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
  let held = heldBy.get(db);
  if (!held) {
    held = new Map();
    heldBy.set(db, held);
  }
  held.set(`${channel}\u0000${payload}`, [channel, payload]);
}

type Builder = ReturnType<Db['transaction']>;

/** Makes every `root.transaction().execute(...)` hand its held signals to the listeners after COMMIT. */
function install(root: Db): void {
  if (installed.has(root)) return;
  installed.add(root);
  const wrap = (builder: Builder): Builder => {
    const execute = builder.execute.bind(builder);
    const setAccessMode = builder.setAccessMode.bind(builder);
    const setIsolationLevel = builder.setIsolationLevel.bind(builder);
    return Object.assign(builder, {
      async execute<T>(work: (trx: Parameters<Parameters<Builder['execute']>[0]>[0]) => Promise<T>): Promise<T> {
        let trx: Db | undefined;
        const result = await execute((opened) => {
          trx = opened;
          return work(opened);
        });
        const held = trx && heldBy.get(trx);
        if (held) {
          heldBy.delete(trx!);
          emit(root, held.values());
        }
        return result;
      },
      setAccessMode: (mode: Parameters<Builder['setAccessMode']>[0]) => wrap(setAccessMode(mode)),
      setIsolationLevel: (level: Parameters<Builder['setIsolationLevel']>[0]) => wrap(setIsolationLevel(level)),
    });
  };
  const transaction = root.transaction.bind(root);
  root.transaction = () => wrap(transaction());
}

/** Forwards the committed signals of `db`'s transactions to `listener`; returns the way to stop. */
export function forwardCommitSignals(db: Db, listener: CommitListener): () => void {
  install(db);
  let listeners = listenersOf.get(db);
  if (!listeners) {
    listeners = new Set();
    listenersOf.set(db, listeners);
  }
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
