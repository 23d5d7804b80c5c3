/**
 * The lane scheduler of background work: at most `lanes` items run at once, each claimed (with a
 * lease) by this process only, so they run independently. `fill` claims as many due items as
 * there are free lanes, starts each and returns without waiting for them; an item that ends frees
 * its lane and fills again. So work that becomes due while others run (its commit wakes the job)
 * starts in a free lane at once, never after the slowest item of a batch.
 *
 * The module says what a claim is and what one item's run does (an order's step, a webhook
 * attempt); the scheduler owns the lanes, the coalescing of concurrent fills and the drain.
 */

export interface LaneWork<T> {
  /** Runs before each round of claims (expiries, fan-out); returns how many rows it touched. */
  prepare?(options: FillOptions): Promise<number>;
  /** Claims up to `free` due items, taking a lease on each (in the name of `options.holder`, when the work names its holders). */
  claim(free: number, options: FillOptions): Promise<T[]>;
  /** What one lane does with one claimed item; a rejection goes to the fill's `onError`. */
  run(item: T): Promise<void>;
}

export interface FillOptions {
  /** Lanes: items running at once. */
  lanes: number;
  /** Items claimed by one statement at most (default: as many as there are free lanes). */
  batch?: number;
  /** The job's stop signal: no claims once aborted (running items finish). */
  signal?: AbortSignal;
  /** Told of what failed outside the fill that started it: an item's run, a fill started when an item ended. */
  onError?: (err: unknown) => void;
  /** The worker instance claiming (platform/worker-presence.ts), asked at each claim: it changes if the instance registers anew. */
  holder?: () => string | null;
}

export interface LaneScheduler {
  /** Claims into the free lanes and starts what it claimed; a call while a fill is claiming joins it (one more round). Resolves with how many items it touched. */
  fill(options: FillOptions): Promise<number>;
  /** Resolves when no item is running and no fill is claiming. */
  drain(): Promise<void>;
  /** A fill is claiming now (a new `fill` would join it). */
  readonly claiming: boolean;
  /** Items running now. */
  readonly running: number;
}

export function createLaneScheduler<T>(work: LaneWork<T>): LaneScheduler {
  const running = new Set<Promise<void>>();
  let filling: Promise<number> | undefined;
  let again = false;
  let options: FillOptions = { lanes: 1 };

  function launch(item: T) {
    const task = work
      .run(item)
      .catch((err: unknown) => options.onError?.(err))
      .finally(() => {
        running.delete(task);
        if (!options.signal?.aborted) fill(options).catch((err: unknown) => options.onError?.(err));
      });
    running.add(task);
  }

  async function fillLoop(): Promise<number> {
    let touched = 0;
    do {
      again = false;
      if (work.prepare) touched += await work.prepare(options);
      while (!options.signal?.aborted && running.size < options.lanes) {
        const free = Math.min(options.batch ?? Infinity, options.lanes - running.size);
        const claimed = await work.claim(free, options);
        for (const item of claimed) launch(item);
        touched += claimed.length;
        if (claimed.length < free) break;
      }
    } while (again && !options.signal?.aborted);
    return touched;
  }

  function fill(next: FillOptions): Promise<number> {
    options = next;
    if (filling) {
      again = true;
      return filling.then(() => 0);
    }
    filling = fillLoop().finally(() => {
      filling = undefined;
    });
    return filling;
  }

  return {
    fill,
    async drain() {
      while (filling || running.size > 0) await Promise.allSettled([filling, ...running]);
    },
    get claiming() {
      return filling !== undefined;
    },
    get running() {
      return running.size;
    },
  };
}
