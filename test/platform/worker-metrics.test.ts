/**
 * Each worker job's health on the registry (src/platform/worker-metrics.ts): the last successful
 * pass, the lag since it (growing while the job fails or before its first success), its interval,
 * and its failed passes; a failed pass is still thrown to the runtime, which logs it.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { WorkerJob } from '../../src/platform/worker-job.ts';
import { withJobMetrics } from '../../src/platform/worker-metrics.ts';

describe('worker job metrics', () => {
  it('records successes, failures and the lag since the last success, per job', async () => {
    let now = 1_000_000;
    let failing = false;
    const job: WorkerJob = {
      name: 'order-steps',
      intervalMs: 500,
      run: async () => {
        if (failing) throw new Error('database gone');
      },
    };
    const registry = new Registry();
    const [wrapped] = withJobMetrics(registry, [job], () => now);
    const values = async (name: string) => Object.fromEntries((await registry.getSingleMetric(name)!.get()).values.map((v) => [v.labels.job_name, v.value]));

    // Before the first pass: no success yet, the lag counts from when the worker took the job.
    now += 4000;
    expect(await values('worker_job_lag_seconds')).toEqual({ 'order-steps': 4 });
    expect(await values('worker_job_last_success_timestamp_seconds')).toEqual({});
    expect(await values('worker_job_interval_seconds')).toEqual({ 'order-steps': 0.5 });
    expect(await values('worker_job_pass_failures_total')).toEqual({ 'order-steps': 0 });

    await wrapped!.run(new AbortController().signal);
    expect(await values('worker_job_last_success_timestamp_seconds')).toEqual({ 'order-steps': 1004 });
    expect(await values('worker_job_lag_seconds')).toEqual({ 'order-steps': 0 });

    failing = true;
    now += 10_000;
    await expect(wrapped!.run(new AbortController().signal)).rejects.toThrow('database gone');
    await expect(wrapped!.run(new AbortController().signal)).rejects.toThrow('database gone');
    expect(await values('worker_job_pass_failures_total')).toEqual({ 'order-steps': 2 });
    expect(await values('worker_job_lag_seconds')).toEqual({ 'order-steps': 10 });
    expect(await values('worker_job_last_success_timestamp_seconds')).toEqual({ 'order-steps': 1004 });
  });

  it('keeps what the job declares: its name, interval, wake-ups and drain', () => {
    const drain = async () => {};
    const [wrapped] = withJobMetrics(new Registry(), [{ name: 'webhook-delivery', intervalMs: 1000, wakeOn: ['outbox'], run: async () => {}, drain }]);
    expect(wrapped).toMatchObject({ name: 'webhook-delivery', intervalMs: 1000, wakeOn: ['outbox'], drain });
  });

  it('hands each pass the worker instance it runs as (its claims name it: a dropped one made them lease-only)', async () => {
    const seen: unknown[] = [];
    const [wrapped] = withJobMetrics(new Registry(), [{ name: 'order-steps', intervalMs: 1000, run: async (_signal, instance) => void seen.push(instance?.holder()) }]);
    await wrapped!.run(new AbortController().signal, { holder: () => 'worker-a' });
    expect(seen).toEqual(['worker-a']);
  });
});
