/**
 * How an order moves after creation, as one object for the composition root: the outcomes that
 * arrive from providers and the chain (notifications.ts) and the worker's steps (steps.ts), both
 * writing through the one guarded transition (transitions.ts).
 */
import { type NotificationDeps, createOrderNotifications } from './notifications.ts';
import { type StepDeps, createOrderSteps } from './steps.ts';

export type LifecycleDeps = NotificationDeps & StepDeps;

export function createOrderLifecycle(deps: LifecycleDeps) {
  return { ...createOrderNotifications(deps), ...createOrderSteps(deps) };
}

export { applyTransition, type TransitionContext } from './transitions.ts';
export { RetryLater } from './steps.ts';

export type OrderLifecycle = ReturnType<typeof createOrderLifecycle>;
