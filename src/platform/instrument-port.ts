/**
 * A port's calls, observed: the same object with every function that returns a promise timed and
 * its outcome told to `record`, so an adapter is wrapped once where it is composed instead of at
 * each of its call sites. What the calls answer, and what they throw, passes through untouched.
 */

/** ok: answered; refused: answered by refusing this request (the dependency is up); error: not answered. */
export type CallOutcome = 'ok' | 'refused' | 'error';

export interface PortObserver {
  /** Functions left as they are (e.g. `close`). */
  except: readonly string[];
  /** What a rejection means: `refused` when the dependency answered, `error` when it did not. */
  failure(error: unknown): CallOutcome;
  record(operation: string, outcome: CallOutcome, seconds: number): void;
}

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

export function instrumentPort<P extends object>(port: P, observer: PortObserver): P {
  const observed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(port)) {
    if (typeof value !== 'function' || observer.except.includes(name)) {
      observed[name] = value;
      continue;
    }
    const fn = value as (...args: unknown[]) => unknown;
    observed[name] = (...args: unknown[]) => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      const result = fn.apply(port, args);
      // A synchronous function is no call to the dependency: left unobserved.
      if (!isPromise(result)) return result;
      return result.then(
        (answer) => {
          observer.record(name, 'ok', seconds());
          return answer;
        },
        (error: unknown) => {
          observer.record(name, observer.failure(error), seconds());
          throw error;
        },
      );
    };
  }
  return observed as P;
}
