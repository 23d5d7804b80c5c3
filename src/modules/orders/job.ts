/**
 * The orders module's background jobs: the order steps (platform lanes over due orders, woken by
 * ORDER_STEPS_CHANNEL when a commit leaves a step due) and the PIX reconciliation sweep.
 */
import type { WorkerJob } from '../../platform/worker-job.ts';
import type { Reconciliation } from './psp/reconciliation.ts';
import type { OrderSteps } from './lifecycle/steps.ts';
import { ORDER_STEPS_CHANNEL } from './lifecycle/transitions.ts';

export interface JobLog {
  error(obj: object, msg: string): void;
}

export function orderStepsJob(steps: Pick<OrderSteps, 'fill' | 'drain'>, intervalMs: number, log?: JobLog): WorkerJob {
  return {
    name: 'order-steps',
    intervalMs,
    wakeOn: [ORDER_STEPS_CHANNEL],
    run: (signal, instance) => steps.fill({ signal, ...(instance ? { holder: instance.holder } : {}), onError: (err) => log?.error({ err }, 'order step claim failed') }).then(() => undefined),
    drain: () => steps.drain(),
  };
}

/** Asks the PIX provider about orders it should have told us of (a lost or late notification). */
export function pixReconciliationJob(reconciliation: Pick<Reconciliation, 'runPass'>, intervalMs: number): WorkerJob {
  return { name: 'pix-reconciliation', intervalMs, run: () => reconciliation.runPass().then(() => undefined) };
}
