/** One load measurement: a short warm-up, then autocannon for the set duration, with the target's peak RSS. */
import autocannon, { type Options } from 'autocannon';
import { sampleRss } from './process.ts';

export interface LoadSettings {
  durationSeconds: number;
  connections: number;
  warmupSeconds: number;
}

export interface LoadFigures {
  requestsPerSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  peakRssMb: number;
  durationSeconds: number;
}

export type Target = Pick<Options, 'method' | 'headers' | 'body' | 'requests'> & { url: string };

/** Runs the warm-up (not counted) and the measured load; samples the pid's RSS throughout both. */
export async function measure(target: Target, settings: LoadSettings, pid: number): Promise<LoadFigures> {
  const rss = sampleRss(pid);
  try {
    if (settings.warmupSeconds > 0) {
      await autocannon({ ...target, connections: settings.connections, duration: settings.warmupSeconds, timeout: 10 });
    }
    const result = await autocannon({ ...target, connections: settings.connections, duration: settings.durationSeconds, timeout: 10 });
    const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count]));
    const completed = result.latency.totalCount ?? result.requests.total;
    return {
      requestsPerSecond: round(completed / result.duration),
      requests: completed,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      maxMs: result.latency.max,
      meanMs: round(result.latency.mean),
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      statusCodes,
      peakRssMb: round(rss.stop()),
      durationSeconds: round(result.duration),
    };
  } finally {
    rss.stop();
  }
}

export const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

/** Runs task(i) for i in [0, count) with at most `concurrency` in flight; bounded in count and by deadlineMs. */
export async function pool<T>(count: number, concurrency: number, deadlineMs: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const deadline = performance.now() + deadlineMs;
  const worker = async () => {
    while (next < count) {
      if (performance.now() > deadline) throw new Error(`pool: deadline of ${deadlineMs} ms passed after ${next} of ${count}`);
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}
