/**
 * The lane scheduler (platform/lanes.ts) with scripted claims and runs: the lane cap, a freed lane
 * filling at once, concurrent fills joining one round, errors reported, and the drain.
 */
import { describe, expect, it } from 'vitest';
import { createLaneScheduler } from '../../src/platform/lanes.ts';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Items 1, 2, 3, … handed out as claimed, `due` of them in all; each run waits for the test. */
function scripted(due: number) {
  let next = 1;
  const claims: number[] = [];
  const runs = new Map<number, ReturnType<typeof deferred<void>>>();
  const scheduler = createLaneScheduler<number>({
    claim: async (free) => {
      claims.push(free);
      const items: number[] = [];
      while (items.length < free && next <= due) items.push(next++);
      return items;
    },
    run: (item) => {
      const done = deferred();
      runs.set(item, done);
      return done.promise;
    },
  });
  return { scheduler, claims, runs };
}

describe('lane scheduler', () => {
  it('runs at most `lanes` items, and a freed lane claims the next at once', async () => {
    const { scheduler, claims, runs } = scripted(5);
    expect(await scheduler.fill({ lanes: 2 })).toBe(2);
    expect([...runs.keys()]).toEqual([1, 2]);
    expect(scheduler.running).toBe(2);
    runs.get(1)!.resolve();
    await settle();
    expect([...runs.keys()]).toEqual([1, 2, 3]);
    expect(claims).toEqual([2, 1]);
    for (const item of [2, 3]) runs.get(item)!.resolve();
    await settle();
    for (const item of [4, 5]) runs.get(item)!.resolve();
    await scheduler.drain();
    expect(scheduler.running).toBe(0);
  });

  it('claims at most `batch` per statement, and a fill during a claim joins it as one more round', async () => {
    const claimed = deferred<number[]>();
    const calls: number[] = [];
    const scheduler = createLaneScheduler<number>({
      claim: (free) => {
        calls.push(free);
        return calls.length === 1 ? claimed.promise : Promise.resolve([]);
      },
      run: async () => {},
    });
    const first = scheduler.fill({ lanes: 10, batch: 3 });
    expect(scheduler.claiming).toBe(true);
    const joined = scheduler.fill({ lanes: 10, batch: 3 });
    claimed.resolve([]);
    expect(await first).toBe(0);
    expect(await joined).toBe(0);
    // The first round's claim, then the round the joined fill asked for.
    expect(calls).toEqual([3, 3]);
  });

  it('reports a failed run to onError and keeps its lane free; no claims once stopped', async () => {
    const { scheduler, runs, claims } = scripted(3);
    const errors: unknown[] = [];
    const stop = new AbortController();
    await scheduler.fill({ lanes: 1, signal: stop.signal, onError: (err) => errors.push(err) });
    stop.abort();
    runs.get(1)!.reject(new Error('step failed'));
    await scheduler.drain();
    expect(errors).toEqual([new Error('step failed')]);
    expect(claims).toEqual([1]);
    expect(scheduler.running).toBe(0);
  });
});
