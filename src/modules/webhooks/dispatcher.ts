/**
 * The worker's delivery pipeline: attempts are independent tasks in the platform's lanes
 * (platform/lanes.ts); this file says what an attempt does around the engine's. Each has its own
 * deadline and holds one lane of this process (WEBHOOK_CONCURRENCY) and one of its endpoint (at most
 * WEBHOOK_ENDPOINT_CONCURRENCY across all workers); the moment it ends its lane frees and the
 * pipeline claims more. No attempt waits for another, so an endpoint that hangs holds only its own
 * slots while the others' deliveries go on.
 *
 * Adaptive per endpoint (in this process): an endpoint starts at a quarter of the cap; each
 * success raises its limit by one, up to the cap, and an attempt that times out, or is answered
 * 429 or 503, halves it (down to 1). An endpoint that answers fast soon has the whole cap; one
 * that hangs soon holds one slot.
 */
import type { WebhookSettings } from '../../config.ts';
import { createLaneScheduler } from '../../platform/lanes.ts';
import type { ClaimedDelivery, DeliveryEngine } from './delivery.ts';
import type { DeliveryMetrics } from './metrics.ts';

export interface DispatcherLog {
  error(obj: object, msg: string): void;
}

/** Endpoints whose adaptive limit a process remembers. */
const MAX_REMEMBERED_ENDPOINTS = 10_000;

/** Where an endpoint's limit starts in a process: a quarter of the cap (at least 1). */
const initialEndpointLimit = (cap: number) => Math.max(1, Math.ceil(cap / 4));

export function createDispatcher(deps: { engine: DeliveryEngine; settings: WebhookSettings; metrics?: DeliveryMetrics; log?: DispatcherLog }) {
  const { engine, settings } = deps;
  const cap = settings.perEndpointConcurrency;
  const initial = initialEndpointLimit(cap);
  /** Attempts in flight here, per endpoint. */
  const local = new Map<string, number>();
  /** This process's adaptive limit per endpoint (absent: `initial`). */
  const limits = new Map<string, number>();
  let signal: AbortSignal = new AbortController().signal;
  let fanOutDue = true;

  /** What this process may still start per endpoint it knows (its limit less its attempts in flight); others: `initial`. */
  function allowances(): Map<string, number> {
    const room = new Map<string, number>();
    for (const endpointId of new Set([...local.keys(), ...limits.keys()])) {
      room.set(endpointId, Math.max(0, (limits.get(endpointId) ?? initial) - (local.get(endpointId) ?? 0)));
    }
    return room;
  }

  function adapt(endpointId: string, outcome: { ok: boolean; timedOut: boolean }) {
    const current = limits.get(endpointId) ?? initial;
    const next = outcome.timedOut ? Math.max(1, Math.floor(current / 2)) : outcome.ok ? Math.min(cap, current + 1) : current;
    // Bounded: endpoints this process has not heard from lately start over.
    if (limits.size >= MAX_REMEMBERED_ENDPOINTS && !limits.has(endpointId)) limits.clear();
    limits.set(endpointId, next);
  }

  /** What one lane does: one attempt, counted against its endpoint while it runs, and the endpoint's limit adapted to it. */
  function attemptOne(delivery: ClaimedDelivery): Promise<void> {
    local.set(delivery.endpointId, (local.get(delivery.endpointId) ?? 0) + 1);
    return engine
      .attempt(delivery, { signal, ...(deps.metrics ? { metrics: deps.metrics } : {}) })
      .then((outcome) => {
        if (!outcome.aborted) adapt(delivery.endpointId, outcome);
      })
      .catch((err: unknown) => deps.log?.error({ err, deliveryId: delivery.id }, 'webhook attempt failed unexpectedly; its lease will lapse'))
      .finally(() => {
        const left = (local.get(delivery.endpointId) ?? 1) - 1;
        if (left > 0) local.set(delivery.endpointId, left);
        else local.delete(delivery.endpointId);
      });
  }

  const lanes = createLaneScheduler<ClaimedDelivery>({
    async prepare() {
      if (fanOutDue) {
        fanOutDue = false;
        await engine.fanOut();
      }
      return 0;
    },
    claim: (free) => engine.claim(free, allowances(), initial),
    run: attemptOne,
  });

  const claimFailed = (err: unknown) => deps.log?.error({ err }, 'webhook claim failed');
  /** Claims and starts what fits (a slot freed by an attempt fills again); concurrent calls coalesce into one more round. */
  const fill = () => lanes.fill({ lanes: settings.concurrency, signal, onError: claimFailed }).then(() => undefined, claimFailed);

  return {
    /**
     * A pass of the worker job: fan out what was recorded, then fill the free slots. It does not
     * wait for a claim round already going: that round fans out before its next claim, so an event
     * committed during a busy stretch is taken within a round trip, not when the stretch ends.
     */
    run(runSignal: AbortSignal): Promise<void> {
      signal = runSignal;
      fanOutDue = true;
      const joined = lanes.claiming;
      const round = fill();
      return joined ? Promise.resolve() : round;
    },
    /** Resolves when every attempt in flight and every claim has ended (stopped attempts give their delivery back). */
    drain: () => lanes.drain(),
    get inFlight() {
      return lanes.running;
    },
  };
}
