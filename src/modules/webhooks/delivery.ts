/**
 * The delivery engine of the worker role: fan-out (events → one delivery per matching endpoint),
 * the claim (fair across endpoints, per endpoint in creation order, with a lease), the attempt
 * (outside any transaction) and its recorded outcome (batched, guarded by the claim). At least
 * once: a worker killed between claim and outcome leaves a lease that expires, and the delivery is
 * tried again with the same deliveryId. The worker's continuous pipeline is in dispatcher.ts.
 *
 * Ordering: per endpoint, deliveries are claimed in the order their events were created, and a
 * delivery about an order is not attempted while another delivery of the same order to the same
 * endpoint is in flight. So while an endpoint answers every attempt with a 2xx, it receives each
 * order's events in creation order. A failed attempt is retried later and may arrive after newer
 * events of that order: receivers should still compare `timestamp`s.
 */
import type { WebhookSettings } from '../../config.ts';
import { signalAfterCommit, inTransaction } from '../../platform/commit-signals.ts';
import type { Db } from '../../db/database.ts';
import { leaseEnd } from '../../platform/leases.ts';
import { createBatchWriter } from '../../platform/batch-writer.ts';
import { openEventPayload } from '../../platform/event-payload-sealing.ts';
import { recordEvent } from '../../platform/outbox.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { newId } from '../../lib/ids.ts';
import { endpointDisabledEvent } from './catalog.ts';
import { deliveryRepo, type RecordedOutcome } from './delivery-repo.ts';
import type { Sender } from './http-sender.ts';
import type { DeliveryMetrics } from './metrics.ts';
import { webhooksRepo as repo } from './repo.ts';
import { judgeAttempt } from './retry-policy.ts';
import type { SecretBox } from './secrets.ts';
import { webhookHeaders } from './signing.ts';

const FAN_OUT_BATCH = 200;
/** Endpoints looked at by one claim. */
const CLAIM_ENDPOINTS = 500;
/** Outcomes written in one statement at most. */
const RECORD_BATCH = 200;

/** Published when deliveries become due now (fan-out, redelivery, recovery, an endpoint re-enabled). */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

/** A delivery this worker holds the lease of. */
export interface ClaimedDelivery {
  id: string;
  token: string;
  endpointId: string;
  event: string;
  url: string;
  /** As stored: its personal values sealed (opened when the body is built, so one that fails to open fails its own attempt only). */
  payload: Record<string, unknown>;
  attempts: number;
  retriesUsed: number;
  /** The endpoint was failing when claimed (a success clears it). */
  failing: boolean;
  /** Ciphertexts of the endpoint's live secrets, newest first. */
  secrets: string[];
}

export interface PassResult {
  fannedOut: number;
  claimed: number;
  succeeded: number;
  failed: number;
}

export interface AttemptOutcome {
  ok: boolean;
  /** The worker stopped it; the delivery was given back. */
  aborted: boolean;
  /** No answer within the deadline, or the receiver said it is overloaded (429, 503). */
  timedOut: boolean;
}

export interface AttemptOptions {
  signal?: AbortSignal;
  metrics?: DeliveryMetrics;
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
  /** Opens the personal values the outbox sealed in a payload (platform/event-payload-sealing.ts). */
  personalData: Pick<PersonalData, 'open'>;
  /** Jitter of retry delays (tests pin it). */
  random?: () => number;
}

interface PendingOutcome {
  outcome: RecordedOutcome;
  endpointId: string;
  /** Set when the endpoint's health changes with this attempt. */
  health?: boolean;
}

/**
 * Attempts' outcomes written together by the platform's batch writer: one statement per batch
 * instead of a transaction each. Each attempt learns whether its outcome was recorded (false: the
 * claim was no longer ours).
 */
function createRecorder(db: Db) {
  return createBatchWriter<PendingOutcome, boolean>(
    async (batch) => {
      const recorded = await deliveryRepo.recordOutcomes(
        db,
        batch.map((entry) => entry.outcome),
      );
      const health = new Map<string, { endpointId: string; ok: boolean; at: Date }>();
      for (const entry of batch) {
        if (entry.health !== undefined && recorded.has(entry.outcome.id)) {
          health.set(entry.endpointId, { endpointId: entry.endpointId, ok: entry.health, at: entry.outcome.attempted_at });
        }
      }
      await deliveryRepo.updateHealth(db, [...health.values()]);
      return batch.map((entry) => recorded.has(entry.outcome.id));
    },
    { maxBatch: RECORD_BATCH },
  );
}

export function createDeliveryEngine({ db, clock, settings, secrets, send, personalData, random = Math.random }: DeliveryEngineDeps) {
  const recorder = createRecorder(db);
  /** Decrypted secrets by ciphertext (a ciphertext always opens to the same secret). */
  const opened = new Map<string, string>();
  const openSecret = (ciphertext: string, endpointId: string) => {
    let secret = opened.get(ciphertext);
    if (secret === undefined) {
      if (opened.size >= 10_000) opened.clear();
      secret = secrets.open(ciphertext, endpointId);
      opened.set(ciphertext, secret);
    }
    return secret;
  };

  /** Turns every event not yet fanned out into deliveries; returns how many deliveries it made. */
  async function fanOut(): Promise<number> {
    let created = 0;
    for (;;) {
      const batch = await inTransaction(db, async (trx) => {
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
              // orderId is never sealed: no need to open the payload here.
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
        // Every worker may take part in delivering them.
        if (inserted.length > 0) signalAfterCommit(trx, DELIVERIES_CHANNEL);
        return { events: events.length, deliveries: inserted.length };
      });
      created += batch.deliveries;
      if (batch.events < FAN_OUT_BATCH) return created;
    }
  }

  /** The last claim found nothing to deliver (see claim()). */
  let idle = false;
  /**
   * Claims up to `limit` due deliveries, taking a lease on each, in one statement
   * (delivery-repo.ts `claimDue`): endpoints in turn, each within the per-endpoint cap across
   * workers and within `allowances` (how many more attempts this process may start per endpoint,
   * its adaptive limit less what it has in flight; `fresh` for endpoints absent from it), per
   * endpoint oldest first and one per order.
   */
  async function claim(limit = settings.concurrency, allowances: ReadonlyMap<string, number> = new Map(), fresh = settings.perEndpointConcurrency): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const now = clock.now();
    // After a claim that found nothing, a plain read first: an idle worker sweeps every second,
    // and the claim's statement costs several times the read (10 ms of PGlite's time, idle).
    if (idle && !(await deliveryRepo.anyDue(db, now))) return [];
    const token = newId();
    const rows = await deliveryRepo.claimDue(db, {
      now,
      until: leaseEnd(now, settings.claimLeaseMs),
      token,
      limit,
      cap: settings.perEndpointConcurrency,
      endpoints: CLAIM_ENDPOINTS,
      allowances,
      fresh,
    });
    idle = rows.length === 0;
    return rows.map((row) => ({
      id: row.id,
      token,
      endpointId: row.endpoint_id,
      event: row.event_type,
      url: row.url,
      payload: row.payload,
      attempts: row.attempts,
      retriesUsed: row.retries_used,
      failing: row.failing,
      secrets: row.secrets,
    }));
  }

  /** 410 Gone: the endpoint is disabled and the merchant told (once: only if it was still enabled). */
  async function disableEndpoint(endpointId: string, reason: 'GONE' | 'FAILING', message: string): Promise<void> {
    await inTransaction(db, async (trx) => {
      const now = clock.now();
      const row = await repo.disableEndpoint(trx, endpointId, message, now);
      if (row) await recordEvent(trx, endpointDisabledEvent({ id: row.id, merchantId: row.merchant_id, url: row.url, failingSince: row.failing_since }, reason, message, now));
    });
  }

  /** One attempt of a claimed delivery and its recorded outcome. */
  async function attempt(delivery: ClaimedDelivery, options: AttemptOptions = {}): Promise<AttemptOutcome> {
    const attemptedAt = clock.now();
    // The body as recorded, personal values in clear: the same bytes, signed the same, as before they were sealed at rest.
    const body = deliveryBody(openEventPayload(personalData, delivery.payload), delivery.id);
    const headers = webhookHeaders(
      delivery.secrets.map((ciphertext) => openSecret(ciphertext, delivery.endpointId)),
      delivery.id,
      Math.floor(attemptedAt.getTime() / 1000),
      body,
    );
    const result = await send({ url: delivery.url, headers, body, timeoutMs: settings.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
    if (result.aborted) {
      await deliveryRepo.release(db, [delivery]);
      return { ok: false, aborted: true, timedOut: false };
    }

    const now = clock.now();
    const verdict = judgeAttempt(result, delivery.retriesUsed, settings.retryScheduleSeconds, now, random);
    const retry = verdict.kind === 'retry';
    const status = verdict.kind === 'succeeded' ? 'SUCCEEDED' : retry ? 'PENDING' : 'FAILED';
    const healthChange = result.ok === delivery.failing ? result.ok : undefined;
    const recorded = await recorder.add({
      outcome: {
        id: delivery.id,
        token: delivery.token,
        status,
        retries_used: retry ? delivery.retriesUsed + 1 : delivery.retriesUsed,
        next_attempt_at: retry ? verdict.at : null,
        attempted_at: attemptedAt,
        status_code: result.statusCode,
        error: verdict.kind === 'gone' ? 'HTTP 410: the endpoint is gone; it was disabled' : result.error,
        updated_at: now,
        attempt_id: newId(),
        succeeded: result.ok,
        latency_ms: result.latencyMs,
        response_body: result.responseBody,
      },
      endpointId: delivery.endpointId,
      ...(healthChange === undefined ? {} : { health: healthChange }),
    });
    if (recorded && verdict.kind === 'gone') await disableEndpoint(delivery.endpointId, 'GONE', 'The endpoint answered 410 Gone');

    const metrics = options.metrics;
    if (metrics) {
      metrics.attempts.inc({ event: delivery.event, outcome: result.ok ? 'success' : 'failure' });
      metrics.latency.observe({ event: delivery.event }, result.latencyMs / 1000);
      if (!result.ok) metrics.failures.inc({ event: delivery.event });
      if (recorded && status === 'FAILED') metrics.exhausted.inc({ event: delivery.event });
    }
    const overloaded = result.statusCode === 429 || result.statusCode === 503;
    return { ok: result.ok && recorded, aborted: false, timedOut: result.timedOut === true || overloaded };
  }

  /**
   * One pass for tests and tools: fan out new events, claim what is due (up to the caps) and
   * attempt each, each on its own; resolves when every attempt has been recorded.
   */
  async function runPass(options: AttemptOptions = {}): Promise<PassResult> {
    const fannedOut = await fanOut();
    const claimed = options.signal?.aborted ? [] : await claim();
    const errors: unknown[] = [];
    const outcomes = await Promise.all(
      claimed.map((delivery) =>
        attempt(delivery, options).catch((err: unknown) => {
          errors.push(err);
          return undefined;
        }),
      ),
    );
    if (options.metrics) options.metrics.pending.set(await repo.countPending(db));
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} webhook attempt(s) failed unexpectedly`);
    const succeeded = outcomes.filter((outcome) => outcome?.ok).length;
    return { fannedOut, claimed: claimed.length, succeeded, failed: claimed.length - succeeded };
  }

  return { fanOut, claim, attempt, runPass, disableEndpoint };
}

export type DeliveryEngine = ReturnType<typeof createDeliveryEngine>;
