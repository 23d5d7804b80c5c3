/**
 * Each worker job's health, on the process's one registry: when its last pass ended without an
 * error, how long ago that was (its lag), its fallback interval, and its failed passes. A job that
 * stopped running, hangs on a dependency or fails every pass shows a lag that only grows, whatever
 * the job does: the alert "a job not running" (ops/prometheus/alerts.yml) compares it with the
 * interval. The jobs are wrapped, not the runtime changed: worker.ts still logs a failed pass.
 *
 * The label is `job_name`, not `job`: Prometheus gives every scraped series its own `job` label
 * (the scrape job), and a metric's `job` would be renamed `exported_job`.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { WorkerJob } from './worker-job.ts';

interface JobHealth {
  intervalSeconds: number;
  /** Epoch ms of the last pass that ended without an error; else when the job was wrapped. */
  since: number;
  succeeded: boolean;
}

interface WorkerJobMetrics {
  jobs: Map<string, JobHealth>;
  failures: Counter<'job_name'>;
}

const cache = new WeakMap<Registry, WorkerJobMetrics>();

function metricsOn(registry: Registry, now: () => number): WorkerJobMetrics {
  const existing = cache.get(registry);
  if (existing) return existing;
  const jobs = new Map<string, JobHealth>();
  const registers = [registry];
  const labelNames = ['job_name'] as const;
  new Gauge({
    name: 'worker_job_last_success_timestamp_seconds',
    help: 'Unix time at which the job last ended a pass without an error (absent before its first)',
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const [name, job] of jobs) if (job.succeeded) this.set({ job_name: name }, job.since / 1000);
    },
  });
  new Gauge({
    name: 'worker_job_lag_seconds',
    help: "Seconds since the job's last pass ended without an error (before its first: since the worker started it); grows while it hangs or fails",
    labelNames,
    registers,
    collect() {
      this.reset();
      const at = now();
      for (const [name, job] of jobs) this.set({ job_name: name }, Math.max(0, at - job.since) / 1000);
    },
  });
  new Gauge({
    name: 'worker_job_interval_seconds',
    help: "The job's fallback interval: the longest it waits between passes when nothing wakes it",
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const [name, job] of jobs) this.set({ job_name: name }, job.intervalSeconds);
    },
  });
  const failures = new Counter({ name: 'worker_job_pass_failures_total', help: 'Passes of the job that ended with an error (logged as "job pass failed")', labelNames, registers });
  const metrics = { jobs, failures };
  cache.set(registry, metrics);
  return metrics;
}

/** The same jobs, each pass recorded on `registry`. */
export function withJobMetrics(registry: Registry, jobs: WorkerJob[], now: () => number = Date.now): WorkerJob[] {
  const metrics = metricsOn(registry, now);
  return jobs.map((job) => {
    const health: JobHealth = { intervalSeconds: job.intervalMs / 1000, since: now(), succeeded: false };
    metrics.jobs.set(job.name, health);
    metrics.failures.inc({ job_name: job.name }, 0);
    return {
      ...job,
      // The instance too: the claims the pass makes name it (worker-presence.ts).
      async run(signal, instance) {
        try {
          await job.run(signal, instance);
        } catch (err) {
          metrics.failures.inc({ job_name: job.name });
          throw err;
        }
        health.since = now();
        health.succeeded = true;
      },
    };
  });
}
