/**
 * The worker role: background jobs, each a loop of passes. A pass runs at once when something the
 * job cares about is published (a notification on one of its `wakeOn` channels: from this process
 * at once, from others through LISTEN/NOTIFY), when the notifications connection comes back after
 * a loss (what was missed meanwhile is swept), and otherwise every `intervalMs` as a fallback
 * sweep. Jobs keep their state in the database and claim work with FOR UPDATE SKIP LOCKED, so any
 * number of workers can run and any of them may be killed at any instant; the worker instance
 * (worker-presence.ts) that claims is named in its claims, so a killed one's are taken at once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Notifications } from './notifications.ts';
import type { WorkerInstance, WorkerJob } from './worker-job.ts';
import type { WorkerPresence } from './worker-presence.ts';

export interface Worker {
  stop(): Promise<void>;
}

/** A job's doorbell: rung by notifications, waited on between passes. */
class Wake {
  private rung = false;
  private ring?: () => void;
  set() {
    this.rung = true;
    this.ring?.();
  }
  /** Whether it rang since the last call (and resets it). */
  take(): boolean {
    const was = this.rung;
    this.rung = false;
    return was;
  }
  /** Resolves after `ms`, or at once when it rings or the worker stops. */
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (this.rung || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.ring = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.ring = done;
    });
  }
}

/**
 * `presence`: the worker instance these jobs run as (its claims name it); when it finds dead
 * instances, their claims are free and every job runs a pass at once. Without it (tests, tools)
 * claims name no holder.
 */
export function startWorker(
  jobs: WorkerJob[],
  log: FastifyBaseLogger,
  notifications?: Pick<Notifications, 'subscribe' | 'onResync'>,
  presence?: Pick<WorkerPresence, 'holder' | 'onReleased'>,
): Worker {
  const controller = new AbortController();
  const unsubscribe: Array<() => void> = [];
  const instance: WorkerInstance = { holder: () => presence?.holder() ?? null };
  const loops = jobs.map((job) => {
    const wake = new Wake();
    if (notifications) {
      for (const channel of job.wakeOn ?? []) unsubscribe.push(notifications.subscribe(channel, () => wake.set()));
      unsubscribe.push(notifications.onResync(() => wake.set()));
    }
    if (presence) unsubscribe.push(presence.onReleased(() => wake.set()));
    return runLoop(job, instance, wake, controller.signal, log.child({ job: job.name }));
  });
  log.info({ jobs: jobs.map((job) => job.name) }, 'worker started');
  return {
    async stop() {
      for (const stop of unsubscribe) stop();
      controller.abort();
      await Promise.all(loops);
      await Promise.all(jobs.map((job) => job.drain?.()));
      log.info('worker stopped');
    },
  };
}

async function runLoop(job: WorkerJob, instance: WorkerInstance, wake: Wake, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
  while (!signal.aborted) {
    wake.take();
    try {
      await job.run(signal, instance);
    } catch (err) {
      log.error({ err }, 'job pass failed');
    }
    await wake.sleep(job.intervalMs, signal);
  }
}
