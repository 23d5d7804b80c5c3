/**
 * What a module hands the worker role: a named pass over its due work. The worker runtime
 * (`src/worker.ts`) runs the passes; modules only describe them, so they never import the runtime.
 */
export interface WorkerJob {
  name: string;
  intervalMs: number;
  /** One pass over the work that is due; errors are logged and the next pass retries. */
  run(signal: AbortSignal): Promise<void>;
}
