/**
 * The batch writer (group commit) for rows that must be durable before whoever produced them goes
 * on (the wallets' audit log and sponsored-fee reservations, webhook attempts' outcomes), without
 * one database round trip and one commit per row.
 *
 * `add` queues a row and resolves once the batch holding it is written, with that row's result
 * when the write answers one per row (or rejects with that batch's error): callers await their own row, so nothing is acknowledged before it is stored
 * and nothing is lost that was acknowledged. One write is in flight at a time; rows that arrive
 * meanwhile form the next batch, written as soon as the current one finishes. So an idle service
 * writes a row at once (no timer, no added latency), and a busy one writes as many rows per
 * statement as arrived during one round trip. A batch that fails is retried row by row, so one
 * bad row fails only its own request.
 */

interface Pending<T, R> {
  row: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export interface BatchWriter<T, R = void> {
  /** Resolves when `row` is written, with its result (the write's answer at the row's index). */
  add(row: T): Promise<R>;
  /** Rows queued or being written (for tests and shutdown diagnostics). */
  readonly pending: number;
}

/** `write` writes rows in one go and answers one result per row, in their order (or nothing, for `R = void`). */
export function createBatchWriter<T, R = void>(write: (rows: T[]) => Promise<readonly R[] | void>, options: { maxBatch: number }): BatchWriter<T, R> {
  let queue: Pending<T, R>[] = [];
  let inFlight = 0;
  let writing = false;

  async function settle(batch: Pending<T, R>[]): Promise<void> {
    try {
      const results = await write(batch.map((entry) => entry.row));
      batch.forEach((entry, index) => entry.resolve(results?.[index] as R));
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
      return new Promise<R>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        if (!writing) void drain();
      });
    },
    get pending() {
      return queue.length + inFlight;
    },
  };
}
