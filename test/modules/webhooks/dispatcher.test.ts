/**
 * The delivery pipeline's scheduling (dispatcher.ts) with a scripted engine: what it claims, in
 * which order it fans out and claims, and what it tells the claim about each endpoint's room.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import type { ClaimedDelivery, DeliveryEngine } from '../../../src/modules/webhooks/delivery.ts';
import { createDispatcher } from '../../../src/modules/webhooks/dispatcher.ts';

const settings = { ...loadConfig({}).webhooks, concurrency: 4, perEndpointConcurrency: 2 };

const delivery = (id: string, endpointId: string): ClaimedDelivery => ({
  id,
  token: 't',
  endpointId,
  event: 'webhook.test',
  url: 'http://127.0.0.1:9/',
  payload: {},
  attempts: 0,
  retriesUsed: 0,
  failing: false,
  secrets: [],
});

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** An engine whose claims and attempts the test releases one by one, recording the calls. */
function scriptedEngine() {
  const calls: string[] = [];
  const claims: Array<{ allowances: ReadonlyMap<string, number>; fresh: number | undefined; answer: ReturnType<typeof deferred<ClaimedDelivery[]>> }> = [];
  const attempts = new Map<string, ReturnType<typeof deferred<{ ok: boolean; timedOut: boolean }>>>();
  const engine = {
    fanOut: async () => {
      calls.push('fanOut');
      return 0;
    },
    claim: (_limit: number, allowances: ReadonlyMap<string, number> = new Map(), fresh?: number) => {
      calls.push('claim');
      const answer = deferred<ClaimedDelivery[]>();
      claims.push({ allowances, fresh, answer });
      return answer.promise;
    },
    attempt: async (claimed: ClaimedDelivery) => {
      const done = deferred<{ ok: boolean; timedOut: boolean }>();
      attempts.set(claimed.id, done);
      return { ...(await done.promise), aborted: false };
    },
  } as unknown as DeliveryEngine;
  return { engine, calls, claims, attempts };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const succeeded = { ok: true, timedOut: false };
const timedOut = { ok: false, timedOut: true };

describe('delivery dispatcher', () => {
  it('a wake-up during a claim round does not wait for the round: the round fans out before its next claim', async () => {
    const { engine, calls, claims } = scriptedEngine();
    const dispatcher = createDispatcher({ engine, settings });
    const signal = new AbortController().signal;
    const first = dispatcher.run(signal);
    await settle();
    expect(calls).toEqual(['fanOut', 'claim']);

    // An event commits while the claim is in the database: the pass returns at once.
    let secondReturned = false;
    void dispatcher.run(signal).then(() => (secondReturned = true));
    await settle();
    expect(secondReturned).toBe(true);

    claims[0]!.answer.resolve([]);
    await settle();
    expect(calls).toEqual(['fanOut', 'claim', 'fanOut', 'claim']);
    claims[1]!.answer.resolve([]);
    await first;
  });

  it('tells the claim how many more attempts it may start for each endpoint it has in flight', async () => {
    const { engine, claims, attempts } = scriptedEngine();
    const dispatcher = createDispatcher({ engine, settings });
    const stop = new AbortController();
    void dispatcher.run(stop.signal);
    await settle();
    expect(claims[0]!.allowances.size).toBe(0);
    claims[0]!.answer.resolve([delivery('d1', 'busy'), delivery('d2', 'busy'), delivery('d3', 'other')]);
    await settle();
    // 'other' succeeds: its slot frees and the next claim hears that 'busy' is at its limit here.
    attempts.get('d3')!.resolve(succeeded);
    await settle();
    expect(Object.fromEntries(claims[1]!.allowances)).toEqual({ busy: 0, other: 2 });
    claims[1]!.answer.resolve([]);
    for (const done of attempts.values()) done.resolve(succeeded);
    // As the worker stops: no more claims, then the attempts in flight end (drain waits for claims too).
    stop.abort();
    await dispatcher.drain();
  });

  it('an endpoint starts at a quarter of the cap, opens up by one per success to the cap, and halves on a timeout', async () => {
    const { engine, claims, attempts } = scriptedEngine();
    const dispatcher = createDispatcher({ engine, settings: { ...settings, concurrency: 1, perEndpointConcurrency: 8 } });
    const signal = new AbortController().signal;
    const allowanceAfter = async (id: string, outcome: { ok: boolean; timedOut: boolean }) => {
      claims.at(-1)!.answer.resolve([delivery(id, 'fast')]);
      await settle();
      attempts.get(id)!.resolve(outcome);
      await settle();
      return claims.at(-1)!.allowances.get('fast');
    };
    void dispatcher.run(signal);
    await settle();
    // A new endpoint: no allowance of its own, a quarter of the cap for the claim.
    expect(claims[0]!.allowances.size).toBe(0);
    expect(claims[0]!.fresh).toBe(2);
    const opened: Array<number | undefined> = [];
    for (let i = 0; i < 7; i++) opened.push(await allowanceAfter(`s${i}`, succeeded));
    expect(opened).toEqual([3, 4, 5, 6, 7, 8, 8]);
    expect(await allowanceAfter('t1', timedOut)).toBe(4);
    expect(await allowanceAfter('t2', timedOut)).toBe(2);
    expect(await allowanceAfter('s7', succeeded)).toBe(3);
    claims.at(-1)!.answer.resolve([]);
    await dispatcher.drain();
  });
});
