/**
 * The delivery engine of the worker role: fan-out (events → one delivery per matching endpoint),
 * claiming (FOR UPDATE SKIP LOCKED with a lease), the attempt (outside any transaction), and the
 * outcome with its retry schedule (one transaction, guarded by the claim). At least once: a
 * worker killed between claim and outcome leaves a lease that expires, and the delivery is tried
 * again with the same deliveryId.
 */
import type { WebhookSettings } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { leaseEnd } from '../../db/leases.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Sender } from './http-sender.ts';
import type { DeliveryMetrics } from './metrics.ts';
import { webhooksRepo as repo } from './repo.ts';
import type { SecretBox } from './secrets.ts';
import { webhookHeaders } from './signing.ts';

const FAN_OUT_BATCH = 200;

/** A delivery this worker holds the lease of. */
export interface ClaimedDelivery {
  id: string;
  token: string;
  endpointId: string;
  event: string;
  url: string;
  payload: Record<string, unknown>;
  attempts: number;
  retriesUsed: number;
}

export interface PassResult {
  fannedOut: number;
  claimed: number;
  succeeded: number;
  failed: number;
}

/** The body of one attempt: the event's flat payload with `event` first and `deliveryId` last. */
export function deliveryBody(payload: Record<string, unknown>, deliveryId: string): string {
  const { event, deliveryId: _ignored, ...rest } = payload;
  return JSON.stringify({ event, ...rest, deliveryId });
}

/** The order id a payload is about, for the delivery log's filter. */
export const orderIdOf = (payload: Record<string, unknown>) => (typeof payload.orderId === 'string' ? payload.orderId : null);

export interface DeliveryEngineDeps {
  db: Db;
  clock: Clock;
  settings: WebhookSettings;
  secrets: SecretBox;
  send: Sender;
}

export function createDeliveryEngine({ db, clock, settings, secrets, send }: DeliveryEngineDeps) {
  /** Turns every event not yet fanned out into deliveries; returns how many deliveries it made. */
  async function fanOut(): Promise<number> {
    let created = 0;
    for (;;) {
      const batch = await db.transaction().execute(async (trx) => {
        const events = await repo.claimEventsToFanOut(trx, FAN_OUT_BATCH);
        if (events.length === 0) return { events: 0, deliveries: 0 };
        const endpoints = await repo.activeEndpointsOf(trx, [...new Set(events.map((event) => event.merchant_id))]);
        const now = clock.now();
        const deliveries = events.flatMap((event) =>
          endpoints
            .filter(
              (endpoint) =>
                endpoint.merchant_id === event.merchant_id &&
                // An endpoint receives the events that happen after it exists.
                endpoint.created_at.getTime() <= event.created_at.getTime() &&
                (endpoint.event_types === null || endpoint.event_types.includes(event.event_type)),
            )
            .map((endpoint) => ({
              id: newId(),
              merchant_id: event.merchant_id,
              endpoint_id: endpoint.id,
              event_id: event.id,
              event_type: event.event_type,
              order_id: orderIdOf(event.payload),
              next_attempt_at: now,
              created_at: event.created_at,
              updated_at: now,
            })),
        );
        const inserted = await repo.insertDeliveries(trx, deliveries);
        await repo.markFannedOut(
          trx,
          events.map((event) => event.id),
          now,
        );
        return { events: events.length, deliveries: inserted.length };
      });
      created += batch.deliveries;
      if (batch.events < FAN_OUT_BATCH) return created;
    }
  }

  /** Claims due deliveries within the global and per-endpoint caps, taking a lease on each. */
  async function claim(limit = settings.concurrency): Promise<ClaimedDelivery[]> {
    return db.transaction().execute(async (trx) => {
      const now = clock.now();
      // More candidates than slots, so one busy endpoint at its cap does not starve the others.
      const candidates = await repo.dueCandidates(trx, now, Math.min(limit * 4, 1000));
      if (candidates.length === 0) return [];
      const endpointIds = [...new Set(candidates.map((candidate) => candidate.endpoint_id))];
      await repo.lockEndpoints(trx, endpointIds);
      const inFlight = await repo.inFlightByEndpoint(trx, endpointIds, now);
      const chosen: string[] = [];
      for (const candidate of candidates) {
        if (chosen.length >= limit) break;
        const busy = inFlight.get(candidate.endpoint_id) ?? 0;
        if (busy >= settings.perEndpointConcurrency) continue;
        inFlight.set(candidate.endpoint_id, busy + 1);
        chosen.push(candidate.id);
      }
      if (chosen.length === 0) return [];
      const token = newId();
      const rows = await repo.claim(trx, chosen, token, leaseEnd(now, settings.claimLeaseMs));
      return rows.map((row) => ({
        id: row.id,
        token,
        endpointId: row.endpoint_id,
        event: row.event_type,
        url: row.url,
        payload: row.payload,
        attempts: row.attempts,
        retriesUsed: row.retries_used,
      }));
    });
  }

  /** One attempt of a claimed delivery and its recorded outcome; true when it succeeded. */
  async function attempt(delivery: ClaimedDelivery, options: { signal?: AbortSignal; metrics?: DeliveryMetrics } = {}): Promise<boolean> {
    const attemptedAt = clock.now();
    const live = await repo.liveSecrets(db, [delivery.endpointId], attemptedAt);
    const body = deliveryBody(delivery.payload, delivery.id);
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const headers = webhookHeaders(
      live.map((row) => secrets.open(row.secret_ciphertext, delivery.endpointId)),
      delivery.id,
      timestamp,
      body,
    );
    const result = await send({ url: delivery.url, headers, body, timeoutMs: settings.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    if (result.aborted) {
      await repo.release(db, delivery);
      return false;
    }

    const now = clock.now();
    const schedule = settings.retryScheduleSeconds;
    const retry = !result.ok && delivery.retriesUsed < schedule.length;
    const status = result.ok ? 'SUCCEEDED' : retry ? 'PENDING' : 'FAILED';
    const recorded = await db.transaction().execute((trx) =>
      repo.complete(
        trx,
        delivery,
        {
          status,
          retries_used: retry ? delivery.retriesUsed + 1 : delivery.retriesUsed,
          next_attempt_at: retry ? new Date(now.getTime() + schedule[delivery.retriesUsed]! * 1000) : null,
          last_attempt_at: attemptedAt,
          last_status_code: result.statusCode,
          last_error: result.error,
          updated_at: now,
        },
        {
          id: newId(),
          attempted_at: attemptedAt,
          succeeded: result.ok,
          status_code: result.statusCode,
          latency_ms: result.latencyMs,
          error: result.error,
          response_body: result.responseBody,
        },
      ),
    );

    const metrics = options.metrics;
    if (metrics) {
      metrics.attempts.inc({ event: delivery.event, outcome: result.ok ? 'success' : 'failure' });
      metrics.latency.observe({ event: delivery.event }, result.latencyMs / 1000);
      if (!result.ok) metrics.failures.inc({ event: delivery.event });
      if (recorded && status === 'FAILED') metrics.exhausted.inc({ event: delivery.event });
    }
    return result.ok && recorded;
  }

  /**
   * One pass: fan out new events, claim what is due (up to the caps) and attempt it all
   * concurrently. Deterministic for tests: call it, await it, look at the result.
   */
  async function runPass(options: { signal?: AbortSignal; metrics?: DeliveryMetrics } = {}): Promise<PassResult> {
    const fannedOut = await fanOut();
    const claimed = options.signal?.aborted ? [] : await claim();
    // One delivery's error must not abandon the others: each settles on its own; an error
    // leaves that delivery's lease to expire, and the pass reports it afterwards.
    const outcomes = await Promise.allSettled(claimed.map((delivery) => attempt(delivery, options)));
    if (options.metrics) options.metrics.pending.set(await repo.countPending(db));
    const errors = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} webhook attempt(s) failed unexpectedly`);
    const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value).length;
    return { fannedOut, claimed: claimed.length, succeeded, failed: claimed.length - succeeded };
  }

  return { fanOut, claim, attempt, runPass };
}

export type DeliveryEngine = ReturnType<typeof createDeliveryEngine>;
