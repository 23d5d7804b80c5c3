/**
 * Group commit for rows that must be durable before the request that produced them answers (the
 * wallets' audit log), without one database round trip and one commit per row.
 *
 * `add` queues a row and resolves once the batch holding it is written (or rejects with that
 * batch's error): callers await their own row, so nothing is acknowledged before it is stored
 * and nothing is lost that was acknowledged. One write is in flight at a time; rows that arrive
 * meanwhile form the next batch, written as soon as the current one finishes. So an idle service
 * writes a row at once (no timer, no added latency), and a busy one writes as many rows per
 * statement as arrived during one round trip. A batch that fails is retried row by row, so one
 * bad row fails only its own request.
 */

interface Pending<T> {
  row: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupWriter<T> {
  /** Resolves when `row` is written. */
  add(row: T): Promise<void>;
  /** Rows queued or being written (for tests and shutdown diagnostics). */
  readonly pending: number;
}

export function createGroupWriter<T>(write: (rows: T[]) => Promise<void>, options: { maxBatch: number }): GroupWriter<T> {
  let queue: Pending<T>[] = [];
  let inFlight = 0;
  let writing = false;

  async function settle(batch: Pending<T>[]): Promise<void> {
    try {
      await write(batch.map((entry) => entry.row));
      for (const entry of batch) entry.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const entry of batch) await settle([entry]);
    }
  }

  async function drain(): Promise<void> {
    writing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.length <= options.maxBatch ? queue : queue.slice(0, options.maxBatch);
        queue = queue.length <= options.maxBatch ? [] : queue.slice(options.maxBatch);
        inFlight = batch.length;
        await settle(batch);
        inFlight = 0;
      }
    } finally {
      writing = false;
    }
  }

  return {
    add(row) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        if (!writing) void drain();
      });
    },
    get pending() {
      return queue.length + inFlight;
    },
  };
}
