/**
 * The worker role: background jobs that each run on an interval until stopped. Jobs keep their
 * state in the database and claim work with FOR UPDATE SKIP LOCKED, so any number of workers
 * can run and any of them may be killed at any instant.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { WorkerJob } from './lib/worker-job.ts';

export interface Worker {
  stop(): Promise<void>;
}

export function startWorker(jobs: WorkerJob[], log: FastifyBaseLogger): Worker {
  const controller = new AbortController();
  const loops = jobs.map((job) => runLoop(job, controller.signal, log.child({ job: job.name })));
  log.info({ jobs: jobs.map((job) => job.name) }, 'worker started');
  return {
    async stop() {
      controller.abort();
      await Promise.all(loops);
      log.info('worker stopped');
    },
  };
}

async function runLoop(job: WorkerJob, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
  while (!signal.aborted) {
    try {
      await job.run(signal);
    } catch (err) {
      log.error({ err }, 'job pass failed');
    }
    await sleep(job.intervalMs, signal);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
