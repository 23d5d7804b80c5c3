/**
 * The health of each system the service depends on (docs/architecture/dependency-health.md): the
 * database, the PIX provider (PSP), the orders' chain node, the price source and the mail server.
 * Fed by the calls themselves: the composition root wraps each real adapter once (`instrument`,
 * instrument-port.ts), so every call records its outcome and duration here; and by cheap probes of
 * the dependencies nothing called lately. Each process judges what it sees.
 *
 * The rules, applied to a dependency's record at the moment it is read:
 * - a call the dependency answered is a success, even when the answer refuses this one request (a
 *   PIX payment the PSP refuses, a transfer the chain refuses): it is up. A call it did not answer
 *   (unreachable, timed out, 5xx, our credentials refused) is a failure;
 * - **down**: the last DOWN_AFTER_FAILURES calls failed, or the last call failed and none succeeded
 *   in the last WINDOW_MS (a dependency called rarely, or never reached since the start);
 * - **degraded**: not down, and a call failed in the last WINDOW_MS (failures mixed with successes,
 *   or a recovery less than a window old);
 * - **ok**: no failure in the last WINDOW_MS, or never called.
 *
 * A dependency stands as last seen until something calls it again; so that "last seen" is never
 * old, `probeStale` runs the probe of each one not called for PROBE_AFTER_MS, once at a time,
 * bounded by PROBE_TIMEOUT_MS. GET /readyz runs it; so does `firstDown` (the order gate), without
 * waiting for it, so a refusal never outlives the outage by more than one probe.
 */
import { type CallOutcome, instrumentPort } from './instrument-port.ts';

export type { CallOutcome } from './instrument-port.ts';

export const DEPENDENCIES = ['database', 'psp', 'chain', 'prices', 'mail'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];
export type DependencyState = 'ok' | 'degraded' | 'down';

/** Consecutive failed calls that make a dependency down. */
export const DOWN_AFTER_FAILURES = 3;
/** How long a failure counts: degraded within it, down when no call succeeded within it. */
export const WINDOW_MS = 60_000;
/** A dependency with no call for this long is probed when readiness (or an order needing it) asks. */
export const PROBE_AFTER_MS = 10_000;
/** A probe that has not answered by then counts as a failure. */
export const PROBE_TIMEOUT_MS = 5_000;

export interface CallRecord {
  dependency: Dependency;
  operation: string;
  outcome: CallOutcome;
  seconds: number;
}

/** What `stateOf` judges: epoch milliseconds by the service's clock. */
export interface CallHistory {
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  consecutiveFailures: number;
}

/** The rules above, as one pure function. */
export function stateOf(history: CallHistory, now: number): DependencyState {
  const { lastSuccessAt, lastFailureAt, consecutiveFailures } = history;
  if (lastFailureAt === null) return 'ok';
  if (consecutiveFailures >= DOWN_AFTER_FAILURES) return 'down';
  if (consecutiveFailures > 0 && (lastSuccessAt === null || now - lastSuccessAt >= WINDOW_MS)) return 'down';
  return now - lastFailureAt < WINDOW_MS ? 'degraded' : 'ok';
}

export interface DependencyReport {
  /** What stands behind it (postgresql, api-pix, solana-rpc, http, smtp…); `inProcess` ones have nothing to reach. */
  provider: string;
  state: DependencyState;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
}

export interface DependencyOptions {
  provider: string;
  /** An in-process stand-in (a sandbox, mail to the log): not tracked, always ok. */
  inProcess?: boolean;
  /** A cheap call through the instrumented port (its outcome is recorded as any call's); rejects on failure. */
  probe?: () => Promise<unknown>;
}

interface Entry extends CallHistory, DependencyOptions {
  lastCallAt: number | null;
  probing: Promise<ProbeResult> | undefined;
}

export type ProbeResult = { up: true } | { up: false; error: unknown };

export interface DependencyLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export function createDependencyHealth(deps: { now: () => Date; log?: DependencyLog | undefined }) {
  const entries = new Map<Dependency, Entry>(
    DEPENDENCIES.map((dependency) => [dependency, { provider: 'none', inProcess: true, lastSuccessAt: null, lastFailureAt: null, consecutiveFailures: 0, lastCallAt: null, probing: undefined }]),
  );
  const listeners: Array<(call: CallRecord) => void> = [];
  const now = () => deps.now().getTime();
  const entry = (dependency: Dependency) => entries.get(dependency)!;

  function state(dependency: Dependency): DependencyState {
    const known = entry(dependency);
    return known.inProcess ? 'ok' : stateOf(known, now());
  }

  function record(call: CallRecord): void {
    const known = entry(call.dependency);
    const before = state(call.dependency);
    const at = now();
    known.lastCallAt = at;
    if (call.outcome === 'error') {
      known.lastFailureAt = at;
      known.consecutiveFailures += 1;
    } else {
      known.lastSuccessAt = at;
      known.consecutiveFailures = 0;
    }
    const after = state(call.dependency);
    // Names and states only: a dependency's own words (hosts, URLs with keys) stay with the caller's error.
    if (after === 'down' && before !== 'down') deps.log?.warn({ dependency: call.dependency, operation: call.operation }, 'dependency down: orders that need it are refused');
    if (before === 'down' && after !== 'down') deps.log?.info({ dependency: call.dependency, operation: call.operation }, 'dependency answers again');
    for (const listener of listeners) listener(call);
  }

  async function runProbe(dependency: Dependency, probe: () => Promise<unknown>): Promise<ProbeResult> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<ProbeResult>((resolve) => {
      timer = setTimeout(() => {
        record({ dependency, operation: 'probe', outcome: 'error', seconds: PROBE_TIMEOUT_MS / 1000 });
        resolve({ up: false, error: new Error(`${dependency} probe: no answer within ${PROBE_TIMEOUT_MS} ms`) });
      }, PROBE_TIMEOUT_MS);
      timer.unref();
    });
    let started: Promise<unknown>;
    try {
      started = probe();
    } catch (error) {
      // A probe that throws before its promise is a failure too, never an unhandled rejection.
      started = Promise.reject(error);
    }
    const answered = started.then(
      (): ProbeResult => ({ up: true }),
      (error: unknown): ProbeResult => ({ up: false, error }),
    );
    return Promise.race([answered, timedOut]).finally(() => clearTimeout(timer));
  }

  /** Runs the dependency's probe now, or joins the one running. */
  function probe(dependency: Dependency): Promise<ProbeResult> {
    const known = entry(dependency);
    if (!known.probe) return Promise.resolve({ up: true });
    known.probing ??= runProbe(dependency, known.probe).finally(() => {
      known.probing = undefined;
    });
    return known.probing;
  }

  const isStale = (known: Entry, at: number) => !known.inProcess && known.probe !== undefined && (known.lastCallAt === null || at - known.lastCallAt >= PROBE_AFTER_MS);

  /** Probes every dependency of `only` (default all) not called for PROBE_AFTER_MS; resolves when they end, or after `waitMs`. */
  function probeStale(options: { only?: readonly Dependency[]; waitMs?: number } = {}): Promise<void> {
    const at = now();
    const runs = (options.only ?? DEPENDENCIES).filter((dependency) => isStale(entry(dependency), at)).map(probe);
    if (runs.length === 0) return Promise.resolve();
    const all = Promise.all(runs).then(() => undefined);
    if (options.waitMs === undefined) return all;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.waitMs);
    });
    return Promise.race([all, deadline]).finally(() => clearTimeout(timer));
  }

  return {
    /** Declares what stands behind a dependency; undeclared ones are reported in process ("none"). */
    register(dependency: Dependency, options: DependencyOptions): void {
      const known = entry(dependency);
      known.provider = options.provider;
      known.inProcess = options.inProcess ?? false;
      known.probe = options.probe;
    },
    record,
    /** Every function of `port` (but `except`) recorded as a call of `dependency`; `failure` says what a rejection means. */
    instrument<P extends object>(dependency: Dependency, port: P, failure: (error: unknown) => CallOutcome = () => 'error', except: readonly string[] = []): P {
      return instrumentPort(port, { except, failure, record: (operation, outcome, seconds) => record({ dependency, operation, outcome, seconds }) });
    },
    state,
    probe,
    probeStale,
    /**
     * The first of `needs` that is down, from memory (the order gate: no network on the request's
     * path). Starts, without waiting, a probe of those not called lately.
     */
    firstDown(needs: readonly Dependency[]): Dependency | undefined {
      void probeStale({ only: needs });
      return needs.find((dependency) => state(dependency) === 'down');
    },
    report(): Record<Dependency, DependencyReport> {
      const at = (time: number | null) => (time === null ? null : new Date(time));
      return Object.fromEntries(
        DEPENDENCIES.map((dependency) => {
          const known = entry(dependency);
          return [dependency, { provider: known.provider, state: state(dependency), lastSuccessAt: at(known.lastSuccessAt), lastFailureAt: at(known.lastFailureAt) }];
        }),
      ) as Record<Dependency, DependencyReport>;
    },
    /** Told of every call recorded (the metrics). */
    onCall(listener: (call: CallRecord) => void): void {
      listeners.push(listener);
    },
  };
}

export type DependencyHealth = ReturnType<typeof createDependencyHealth>;
