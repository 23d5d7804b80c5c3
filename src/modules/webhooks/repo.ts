/**
 * Webhook SQL. Every function takes the transaction (or root db) it runs in; merchant-facing
 * reads are scoped by merchant. Times come from the caller's clock, not the database's, except
 * created_at (database now(), so "endpoint created after the event" compares like with like).
 */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { plannedEachRun } from '../../db/prepared-statements.ts';
import { skipHeld } from '../../platform/leases.ts';
import type { WebhookDeliveriesTable, WebhookDeliveryStatus, WebhookEndpointsTable } from './tables.ts';
import { WEBHOOK_ATTEMPT_COLUMNS, WEBHOOK_DELIVERY_COLUMNS, WEBHOOK_ENDPOINT_COLUMNS } from './tables.ts';
import { qualified } from '../../db/columns.ts';

export interface DeliveryFilters {
  status?: WebhookDeliveryStatus;
  event?: string;
  endpointId?: string;
  orderId?: string;
}

export const webhooksRepo = {
  // --- endpoints and secrets ------------------------------------------------------------------

  insertEndpoint(db: Db, endpoint: Insertable<WebhookEndpointsTable>) {
    return db.insertInto('webhook_endpoints').values(endpoint).returning(WEBHOOK_ENDPOINT_COLUMNS).executeTakeFirstOrThrow();
  },

  insertSecret(db: Db, secret: { id: string; endpoint_id: string; secret_ciphertext: string }) {
    return db.insertInto('webhook_endpoint_secrets').values(secret).execute();
  },

  findEndpoint(db: Db, id: string, merchantId: string, options: { forUpdate?: boolean } = {}) {
    let query = db.selectFrom('webhook_endpoints').select(WEBHOOK_ENDPOINT_COLUMNS).where('id', '=', id).where('merchant_id', '=', merchantId).where('deleted_at', 'is', null);
    if (options.forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  listEndpoints(db: Db, merchantId: string) {
    return db
      .selectFrom('webhook_endpoints')
      .select(WEBHOOK_ENDPOINT_COLUMNS)
      .where('merchant_id', '=', merchantId)
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  async countEndpoints(db: Db, merchantId: string) {
    const row = await db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('merchant_id', '=', merchantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  updateEndpoint(
    db: Db,
    id: string,
    merchantId: string,
    changes: { url?: string; description?: string | null; event_types?: string | null; enabled?: boolean; updated_at: Date; deleted_at?: Date },
  ) {
    return db
      .updateTable('webhook_endpoints')
      .set(changes)
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .where('deleted_at', 'is', null)
      .returning(WEBHOOK_ENDPOINT_COLUMNS)
      .executeTakeFirst();
  },

  /** Secrets that sign at `now`, newest first: the current one and, during an overlap, the previous. */
  liveSecrets(db: Db, endpointIds: string[], now: Date) {
    if (endpointIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('webhook_endpoint_secrets')
      .select(['endpoint_id', 'secret_ciphertext', 'created_at', 'expires_at'])
      .where('endpoint_id', 'in', endpointIds)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  /** Rotation: the current secret signs until `previousUntil`; any older one stops now. */
  async retireSecrets(db: Db, endpointId: string, now: Date, previousUntil: Date) {
    await db
      .updateTable('webhook_endpoint_secrets')
      .set({ expires_at: now })
      .where('endpoint_id', '=', endpointId)
      .where('expires_at', '>', now)
      .execute();
    await db
      .updateTable('webhook_endpoint_secrets')
      .set({ expires_at: previousUntil })
      .where('endpoint_id', '=', endpointId)
      .where('expires_at', 'is', null)
      .execute();
  },

  /** A deleted endpoint's pending deliveries end FAILED (never sent to a URL the merchant removed). */
  failPendingOfEndpoint(db: Db, endpointId: string, now: Date, reason: string) {
    return db
      .updateTable('webhook_deliveries')
      .set({ status: 'FAILED', next_attempt_at: null, last_error: reason, updated_at: now })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'PENDING')
      .execute();
  },

  /**
   * The platform disables an endpoint (410 Gone, failing too long): returns it if it was enabled,
   * undefined if it already was disabled or deleted (so the merchant is told once).
   */
  disableEndpoint(db: Db, id: string, reason: string, now: Date) {
    return db
      .updateTable('webhook_endpoints')
      .set({ enabled: false, disabled_reason: reason, updated_at: now })
      .where('id', '=', id)
      .where('enabled', '=', true)
      .where('deleted_at', 'is', null)
      .returning(['id', 'merchant_id', 'url', 'failing_since'])
      .executeTakeFirst();
  },

  // --- fan-out --------------------------------------------------------------------------------

  /** Oldest events not yet fanned out, locked so concurrent workers take different ones. */
  claimEventsToFanOut(db: Db, limit: number) {
    return db
      .selectFrom('events')
      .modifyFront(plannedEachRun)
      .select(['id', 'merchant_id', 'event_type', 'payload', 'created_at'])
      .where('fanned_out_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .$call(skipHeld)
      .execute();
  },

  activeEndpointsOf(db: Db, merchantIds: string[]) {
    return db
      .selectFrom('webhook_endpoints')
      .select(['id', 'merchant_id', 'event_types', 'created_at'])
      .where('merchant_id', 'in', merchantIds)
      .where('enabled', '=', true)
      .where('deleted_at', 'is', null)
      .execute();
  },

  /** Exactly one delivery per (event, endpoint), whatever runs twice. */
  insertDeliveries(db: Db, deliveries: Array<Insertable<WebhookDeliveriesTable>>) {
    if (deliveries.length === 0) return Promise.resolve([]);
    return db
      .insertInto('webhook_deliveries')
      .values(deliveries)
      .onConflict((oc) => oc.constraint('webhook_deliveries_event_endpoint_key').doNothing())
      .returning('id')
      .execute();
  },

  markFannedOut(db: Db, eventIds: string[], now: Date) {
    if (eventIds.length === 0) return Promise.resolve([]);
    return db.updateTable('events').set({ fanned_out_at: now }).where('id', 'in', eventIds).execute();
  },

  // --- the queue ------------------------------------------------------------------------------

  async countPending(db: Db) {
    const row = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'PENDING')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  // --- the delivery log -----------------------------------------------------------------------

  insertDelivery(db: Db, delivery: Insertable<WebhookDeliveriesTable>) {
    return db.insertInto('webhook_deliveries').values(delivery).returning(WEBHOOK_DELIVERY_COLUMNS).executeTakeFirstOrThrow();
  },

  async listDeliveries(db: Db, merchantId: string, filters: DeliveryFilters, page: { offset: number; limit: number }) {
    let query = db.selectFrom('webhook_deliveries as d').where('d.merchant_id', '=', merchantId);
    if (filters.status) query = query.where('d.status', '=', filters.status);
    if (filters.event) query = query.where('d.event_type', '=', filters.event);
    if (filters.endpointId) query = query.where('d.endpoint_id', '=', filters.endpointId);
    if (filters.orderId) query = query.where('d.order_id', '=', filters.orderId);
    const [rows, count] = await Promise.all([
      query
        .innerJoin('events as ev', 'ev.id', 'd.event_id')
        .select(qualified('d', WEBHOOK_DELIVERY_COLUMNS))
        .select('ev.payload')
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc')
        .offset(page.offset)
        .limit(page.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  findDelivery(db: Db, id: string, merchantId: string, options: { forUpdate?: boolean } = {}) {
    let query = db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as ev', 'ev.id', 'd.event_id')
      .select(qualified('d', WEBHOOK_DELIVERY_COLUMNS))
      .select('ev.payload')
      .where('d.id', '=', id)
      .where('d.merchant_id', '=', merchantId);
    if (options.forUpdate) query = query.forUpdate('d');
    return query.executeTakeFirst();
  },

  attemptsOf(db: Db, deliveryIds: string[]) {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('webhook_delivery_attempts')
      .select(WEBHOOK_ATTEMPT_COLUMNS)
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('delivery_id')
      .orderBy('attempt_number')
      .execute();
  },

  /** Recovery: FAILED deliveries of an endpoint created since `since` get one more attempt, due now. */
  async requeueFailed(db: Db, endpointId: string, since: Date, now: Date, retriesUsed: number): Promise<number> {
    const result = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'PENDING', next_attempt_at: now, retries_used: retriesUsed, updated_at: now })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'FAILED')
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  reschedule(db: Db, id: string, changes: { status: 'PENDING'; next_attempt_at: Date; retries_used?: number; updated_at: Date }) {
    return db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).returning(WEBHOOK_DELIVERY_COLUMNS).executeTakeFirstOrThrow();
  },
};
