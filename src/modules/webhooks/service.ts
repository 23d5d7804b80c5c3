/**
 * Webhooks: the catalog, merchants' endpoints and secrets, test pings, the delivery log and
 * redelivery, and the delivery pass the worker runs. Every merchant-facing function is scoped by
 * the authenticated merchant (another merchant's endpoint or delivery is "not found").
 */
import type { MasterKeys } from '../../lib/rotating-box.ts';
import type { IdempotentRequest } from '../../platform/idempotency/claim.ts';
import type { Static } from 'typebox';
import type { WebhookSettings } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { WebhookDeliveryAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from './tables.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { openEventPayload } from '../../platform/event-payload-sealing.ts';
import { buildCatalog, webhookTestEvent } from './catalog.ts';
import type { EventDefinition } from '../../platform/outbox.ts';
import { signalAfterCommit, inTransaction } from '../../platform/commit-signals.ts';
import { DELIVERIES_CHANNEL, createDeliveryEngine, deliveryBody, type PassResult } from './delivery.ts';
import { createHttpSender, type Sender } from './http-sender.ts';
import { createWebhookMaintenance } from './maintenance.ts';
import type { DeliveryMetrics } from './metrics.ts';
import { recordEvent } from '../../platform/outbox.ts';
import { deliveryRepo } from './delivery-repo.ts';
import { webhooksRepo as repo } from './repo.ts';
import {
  type CreateEndpointInput,
  type DeliveryListInput,
  type DeliverySchema,
  type EndpointSchema,
  MAX_ENDPOINTS_PER_MERCHANT,
  type UpdateEndpointInput,
} from './schemas.ts';
import { createSecretBox, generateSecret } from './secrets.ts';
import { checkWebhookUrl, type Resolver } from './url-policy.ts';

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type Endpoint = Static<typeof EndpointSchema>;
export type Delivery = Static<typeof DeliverySchema>;

export interface WebhooksServiceDeps {
  db: Db;
  clock: Clock;
  settings: WebhookSettings;
  /** WEBHOOK_SECRET_KEY: encrypts endpoint secrets at rest. */
  secretKey: string | MasterKeys;
  /** Every event the other modules emit, for the catalog (wired by the composition root). */
  events: EventDefinition[];
  /** Opens the personal values the outbox sealed in payloads (the log, a redelivery, the bodies sent). */
  personalData: Pick<PersonalData, 'open'>;
  /** Tests inject a resolver; production uses the system's. */
  resolve?: Resolver;
  /** Tests may replace the HTTP transport. */
  send?: Sender;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** `row.payload` as stored, personal values sealed: the answer shows the body as sent, opened. */
function toDelivery(pd: Pick<PersonalData, 'open'>, row: WebhookDeliveryRow & { payload: Record<string, unknown> }, attempts: WebhookDeliveryAttemptRow[]): Delivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    event: row.event_type,
    orderId: row.order_id,
    status: row.status,
    attemptCount: row.attempts,
    nextAttemptAt: iso(row.next_attempt_at),
    lastAttemptAt: iso(row.last_attempt_at),
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    payload: JSON.parse(deliveryBody(openEventPayload(pd, row.payload), row.id)) as Record<string, unknown>,
    attempts: attempts.map((attempt) => ({
      number: attempt.attempt_number,
      attemptedAt: attempt.attempted_at.toISOString(),
      succeeded: attempt.succeeded,
      statusCode: attempt.status_code,
      latencyMs: attempt.latency_ms,
      error: attempt.error,
      responseBody: attempt.response_body,
    })),
  };
}

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { db, clock, settings } = deps;
  const catalog = buildCatalog(deps.events);
  const secretBox = createSecretBox(deps.secretKey);
  const policy = { allowHttp: settings.allowHttp, allowPrivateTargets: settings.allowPrivateTargets };
  const send = deps.send ?? createHttpSender({ policy, connectionsPerOrigin: settings.perEndpointConcurrency, ...(deps.resolve ? { resolve: deps.resolve } : {}) });
  const engine = createDeliveryEngine({ db, clock, settings, secrets: secretBox, send, personalData: deps.personalData });
  const maintenance = createWebhookMaintenance({
    db,
    clock,
    engine,
    disableAfterDays: settings.disableAfterDays,
    retention: { deliveryRetentionDays: settings.deliveryRetentionDays, eventRetentionDays: settings.eventRetentionDays },
  });

  async function checkUrl(url: string): Promise<string> {
    const check = await checkWebhookUrl(url, policy, deps.resolve);
    if (!check.ok) throw new AppError('VALIDATION_ERROR', `url ${check.reason}`, { 'body.url': check.reason });
    return check.url.href;
  }

  async function toEndpoints(rows: WebhookEndpointRow[], executor: Db = db): Promise<Endpoint[]> {
    const secrets = await repo.liveSecrets(
      executor,
      rows.map((row) => row.id),
      clock.now(),
    );
    return rows.map((row) => {
      const own = secrets.filter((secret) => secret.endpoint_id === row.id);
      const current = own.find((secret) => secret.expires_at === null);
      const previous = own.find((secret) => secret.expires_at !== null);
      return {
        id: row.id,
        url: row.url,
        description: row.description,
        eventTypes: row.event_types,
        enabled: row.enabled,
        secretCreatedAt: (current?.created_at ?? row.created_at).toISOString(),
        previousSecretExpiresAt: iso(previous?.expires_at ?? null),
        failingSince: iso(row.failing_since),
        disabledReason: row.disabled_reason,
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
      };
    });
  }

  async function findOwned(merchantId: string, id: string): Promise<WebhookEndpointRow> {
    const row = await repo.findEndpoint(db, id, merchantId);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  async function deliveryWithAttempts(merchantId: string, id: string): Promise<Delivery> {
    const row = await repo.findDelivery(db, id, merchantId);
    if (!row) throw notFound('Webhook delivery');
    return toDelivery(deps.personalData, row, await repo.attemptsOf(db, [id]));
  }

  return {
    catalog: () => ({ data: catalog.entries }),
    eventNames: catalog.names,

    async createEndpoint(merchantId: string, input: CreateEndpointInput, claim?: IdempotentRequest) {
      const url = await checkUrl(input.url);
      const secret = generateSecret();
      const row = await inTransaction(db, async (trx) => {
        // Serialises concurrent creations of one merchant so the cap holds.
        await trx.selectFrom('merchants').select('id').where('id', '=', merchantId).forUpdate().executeTakeFirst();
        if ((await repo.countEndpoints(trx, merchantId)) >= MAX_ENDPOINTS_PER_MERCHANT) {
          throw new AppError('CONFLICT', `A merchant may have at most ${MAX_ENDPOINTS_PER_MERCHANT} webhook endpoints`, { limit: MAX_ENDPOINTS_PER_MERCHANT });
        }
        const id = newId();
        const endpoint = await repo.insertEndpoint(trx, {
          id,
          merchant_id: merchantId,
          url,
          description: input.description ?? null,
          event_types: input.eventTypes ? JSON.stringify(input.eventTypes) : null,
          enabled: input.enabled ?? true,
        });
        await repo.insertSecret(trx, { id: newId(), endpoint_id: id, secret_ciphertext: secretBox.seal(secret, id) });
        // An Idempotency-Key's answer commits with the endpoint.
        if (claim) await claim.complete(trx, { status: 201, body: { ...(await toEndpoints([endpoint], trx))[0]!, secret } });
        return endpoint;
      });
      const [endpoint] = await toEndpoints([row]);
      return { ...endpoint!, secret };
    },

    async listEndpoints(merchantId: string) {
      return { data: await toEndpoints(await repo.listEndpoints(db, merchantId)) };
    },

    async getEndpoint(merchantId: string, id: string): Promise<Endpoint> {
      const [endpoint] = await toEndpoints([await findOwned(merchantId, id)]);
      return endpoint!;
    },

    async updateEndpoint(merchantId: string, id: string, input: UpdateEndpointInput): Promise<Endpoint> {
      if (Object.keys(input).length === 0) {
        throw new AppError('VALIDATION_ERROR', 'At least one field must be provided', { body: 'must have at least one field' });
      }
      await findOwned(merchantId, id);
      const url = input.url === undefined ? undefined : await checkUrl(input.url);
      const row = await repo.updateEndpoint(db, id, merchantId, {
        ...(url !== undefined ? { url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.eventTypes !== undefined ? { event_types: input.eventTypes ? JSON.stringify(input.eventTypes) : null } : {}),
        // Enabled again (by the merchant): a fresh start, and its waiting deliveries are due.
        ...(input.enabled !== undefined ? { enabled: input.enabled, ...(input.enabled ? { disabled_reason: null, failing_since: null } : {}) } : {}),
        updated_at: clock.now(),
      });
      if (!row) throw notFound('Webhook endpoint');
      if (input.enabled) signalAfterCommit(db, DELIVERIES_CHANNEL);
      const [endpoint] = await toEndpoints([row]);
      return endpoint!;
    },

    /** Soft delete: the log keeps its deliveries; pending ones end FAILED. */
    async deleteEndpoint(merchantId: string, id: string): Promise<void> {
      await inTransaction(db, async (trx) => {
        const now = clock.now();
        const row = await repo.updateEndpoint(trx, id, merchantId, { deleted_at: now, enabled: false, updated_at: now });
        if (!row) throw notFound('Webhook endpoint');
        await repo.failPendingOfEndpoint(trx, id, now, 'endpoint deleted');
      });
    },

    /** A new current secret; the previous one keeps signing for 24 h (a second signature). */
    async rotateSecret(merchantId: string, id: string, claim?: IdempotentRequest) {
      const secret = generateSecret();
      const now = clock.now();
      const previousUntil = new Date(now.getTime() + ROTATION_OVERLAP_MS);
      const rotated = { endpointId: id, secret, previousSecretExpiresAt: previousUntil.toISOString() };
      await inTransaction(db, async (trx) => {
        const row = await repo.findEndpoint(trx, id, merchantId, { forUpdate: true });
        if (!row) throw notFound('Webhook endpoint');
        await repo.retireSecrets(trx, id, now, previousUntil);
        await repo.insertSecret(trx, { id: newId(), endpoint_id: id, secret_ciphertext: secretBox.seal(secret, id) });
        await claim?.complete(trx, { status: 200, body: rotated });
      });
      return rotated;
    },

    /** Records a webhook.test event and its one delivery to this endpoint (due now). */
    async sendTest(merchantId: string, id: string, claim?: IdempotentRequest): Promise<Delivery> {
      return inTransaction(db, async (trx) => {
        const endpoint = await repo.findEndpoint(trx, id, merchantId, { forUpdate: true });
        if (!endpoint) throw notFound('Webhook endpoint');
        const now = clock.now();
        const event = await recordEvent(trx, webhookTestEvent(merchantId, id, now));
        // Addressed to this endpoint only: never fanned out to the others.
        await repo.markFannedOut(trx, [event.id], now);
        const delivery = await repo.insertDelivery(trx, {
          id: newId(),
          merchant_id: merchantId,
          endpoint_id: id,
          event_id: event.id,
          event_type: 'webhook.test',
          next_attempt_at: now,
          updated_at: now,
        });
        signalAfterCommit(trx, DELIVERIES_CHANNEL);
        // The delivery as committed, before any attempt: the answer the route sends and a retry replays.
        const answer = toDelivery(deps.personalData, (await repo.findDelivery(trx, delivery.id, merchantId))!, []);
        await claim?.complete(trx, { status: 202, body: answer });
        return answer;
      });
    },

    async listDeliveries(merchantId: string, query: DeliveryListInput) {
      const { page, limit, ...filters } = query;
      const { rows, total } = await repo.listDeliveries(db, merchantId, filters, { offset: (page - 1) * limit, limit });
      const attempts = await repo.attemptsOf(
        db,
        rows.map((row) => row.id),
      );
      return {
        data: rows.map((row) =>
          toDelivery(deps.personalData, 
            row,
            attempts.filter((attempt) => attempt.delivery_id === row.id),
          ),
        ),
        total,
        page,
        limit,
      };
    },

    getDelivery: deliveryWithAttempts,

    /**
     * Schedules one more attempt now, same deliveryId. A PENDING delivery keeps its remaining
     * retries; a SUCCEEDED or FAILED one gets exactly this one attempt (no automatic retries).
     */
    async redeliver(merchantId: string, id: string, claim?: IdempotentRequest): Promise<Delivery> {
      return inTransaction(db, async (trx) => {
        const row = await repo.findDelivery(trx, id, merchantId, { forUpdate: true });
        if (!row) throw notFound('Webhook delivery');
        const now = clock.now();
        if (row.status === 'PENDING' && (await deliveryRepo.inFlight(trx, id, now))) {
          throw new AppError('CONFLICT', 'An attempt of this delivery is in progress; retry when it has finished', { status: row.status });
        }
        const endpoint = await repo.findEndpoint(trx, row.endpoint_id, merchantId);
        if (!endpoint) throw new AppError('CONFLICT', 'The endpoint of this delivery was deleted', { endpointId: row.endpoint_id });
        await repo.reschedule(trx, id, {
          status: 'PENDING',
          next_attempt_at: now,
          ...(row.status === 'PENDING' ? {} : { retries_used: settings.retryScheduleSeconds.length }),
          updated_at: now,
        });
        signalAfterCommit(trx, DELIVERIES_CHANNEL);
        const answer = toDelivery(deps.personalData, (await repo.findDelivery(trx, id, merchantId))!, await repo.attemptsOf(trx, [id]));
        await claim?.complete(trx, { status: 202, body: answer });
        return answer;
      });
    },

    /**
     * Svix-like recovery: every FAILED delivery of the endpoint created at or after `since` gets
     * one more attempt, due now (same deliveryId). Returns how many were re-queued.
     */
    async recover(merchantId: string, id: string, since: Date, claim?: IdempotentRequest) {
      return inTransaction(db, async (trx) => {
        const endpoint = await repo.findEndpoint(trx, id, merchantId, { forUpdate: true });
        if (!endpoint) throw notFound('Webhook endpoint');
        const requeued = await repo.requeueFailed(trx, id, since, clock.now(), settings.retryScheduleSeconds.length);
        if (requeued > 0) signalAfterCommit(trx, DELIVERIES_CHANNEL);
        const answer = { endpointId: id, since: since.toISOString(), requeued };
        await claim?.complete(trx, { status: 202, body: answer });
        return answer;
      });
    },

    countPending: () => repo.countPending(db),

    /** One delivery pass (fan-out, claim, attempts), for tests and tools; the worker runs the pipeline (dispatcher.ts). */
    runDeliveryPass(options: { signal?: AbortSignal; metrics?: DeliveryMetrics } = {}): Promise<PassResult> {
      return engine.runPass(options);
    },

    /** The engine's steps, for tests that stop a "worker" between them. */
    engine,
    /** Disabling endpoints that fail too long, and retention (the worker runs it every minute). */
    maintenance,
    /** Closes the HTTP connection pools (at shutdown). */
    close: () => send.close?.() ?? Promise.resolve(),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
