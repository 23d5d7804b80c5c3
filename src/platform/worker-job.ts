/**
 * What a module hands the worker role: a named pass over its due work. The worker runtime
 * (`src/platform/worker.ts`) runs the passes; modules only describe them, so they never import the runtime.
 */
export interface WorkerJob {
  name: string;
  /** The fallback sweep: the longest the job waits between passes when nothing wakes it. */
  intervalMs: number;
  /**
   * Notification channels that run a pass at once (a committed event, a step now due). A wake-up
   * during a pass runs another pass right after it, so nothing published is missed.
   */
  wakeOn?: string[];
  /**
   * One pass over the work that is due; errors are logged and the next pass retries. `instance`
   * is the worker instance running it (the runtime always gives one): claims that name their holder name `instance.holder()`.
   */
  run(signal: AbortSignal, instance?: WorkerInstance): Promise<void>;
  /** After the last pass, when the worker stops: waits for work the job still has in flight. */
  drain?(): Promise<void>;
}

/** The worker instance running a pass (platform/worker-presence.ts). */
export interface WorkerInstance {
  /** Its id, written in the claims it makes (asked at each claim: a new one after it was taken for dead); null when it has none (tests, tools). */
  holder(): string | null;
}
