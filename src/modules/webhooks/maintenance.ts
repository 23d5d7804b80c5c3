/**
 * The webhook module's upkeep, run by the worker every minute: endpoints failing for
 * WEBHOOK_DISABLE_AFTER_DAYS days are disabled (the merchant is told by an event), and old rows are
 * purged in batches (platform/leases.ts `purgeAll`) so no table grows without bound — finished deliveries with their attempts,
 * events whose deliveries are gone, expired secrets, and deleted endpoints nothing refers to.
 */
import { sql, type SqlBool } from 'kysely';
import type { WebhookSettings } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { purgeAll, purgeBatch } from '../../platform/leases.ts';
import type { DeliveryEngine } from './delivery.ts';

const DAY_MS = 86_400_000;
const BATCH = 1000;

export type RetentionSettings = Pick<WebhookSettings, 'deliveryRetentionDays' | 'eventRetentionDays'>;

export interface PurgeResult {
  deliveries: number;
  events: number;
  secrets: number;
  endpoints: number;
}

const affected = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0);

export function createWebhookMaintenance(deps: { db: Db; clock: Clock; engine: Pick<DeliveryEngine, 'disableEndpoint'>; disableAfterDays: number; retention: RetentionSettings }) {
  const { db, clock } = deps;

  /** Endpoints whose every attempt failed for the configured number of days are disabled; returns how many. */
  async function disableFailingEndpoints(): Promise<number> {
    if (deps.disableAfterDays <= 0) return 0;
    const cutoff = new Date(clock.now().getTime() - deps.disableAfterDays * DAY_MS);
    const rows = await db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('enabled', '=', true)
      .where('deleted_at', 'is', null)
      .where('failing_since', '<', cutoff)
      .limit(100)
      .execute();
    for (const row of rows) {
      await deps.engine.disableEndpoint(row.id, 'FAILING', `Every attempt failed for ${deps.disableAfterDays} days`);
    }
    return rows.length;
  }

  /** Finished deliveries with their attempts. */
  const purgeDeliveries = (cutoff: Date, signal?: AbortSignal) =>
    purgeAll(
      db,
      {
        table: 'webhook_deliveries',
        key: 'id',
        where: sql<SqlBool>`webhook_deliveries.status <> 'PENDING' and webhook_deliveries.updated_at < ${cutoff}`,
        orderBy: 'updated_at',
        limit: BATCH,
        dependents: [{ table: 'webhook_delivery_attempts', column: 'delivery_id' }],
      },
      signal,
    );

  /** Events fanned out whose deliveries are gone. */
  const purgeEvents = (cutoff: Date, signal?: AbortSignal) =>
    purgeAll(
      db,
      {
        table: 'events',
        key: 'id',
        where: sql<SqlBool>`events.created_at < ${cutoff} and events.fanned_out_at is not null
          and not exists (select 1 from webhook_deliveries d where d.event_id = events.id)`,
        orderBy: 'created_at',
        limit: BATCH,
      },
      signal,
    );

  async function purgeSecretsAndEndpoints(now: Date, cutoff: Date): Promise<{ secrets: number; endpoints: number }> {
    const secrets = affected(await sql`delete from webhook_endpoint_secrets where expires_at < ${now}`.execute(db));
    // Deleted endpoints nothing refers to any more, one batch a run (they are few).
    const endpoints = await purgeBatch(db, {
      table: 'webhook_endpoints',
      key: 'id',
      where: sql<SqlBool>`webhook_endpoints.deleted_at < ${cutoff} and not exists (select 1 from webhook_deliveries d where d.endpoint_id = webhook_endpoints.id)`,
      limit: BATCH,
      dependents: [{ table: 'webhook_endpoint_secrets', column: 'endpoint_id' }],
    });
    return { secrets, endpoints };
  }

  /** Purges in batches until nothing old is left (or the worker stops). */
  async function purge(signal?: AbortSignal): Promise<PurgeResult> {
    const now = clock.now();
    const deliveryCutoff = new Date(now.getTime() - deps.retention.deliveryRetentionDays * DAY_MS);
    const eventCutoff = new Date(now.getTime() - deps.retention.eventRetentionDays * DAY_MS);
    const total: PurgeResult = { deliveries: 0, events: 0, secrets: 0, endpoints: 0 };
    total.deliveries = await purgeDeliveries(deliveryCutoff, signal);
    total.events = await purgeEvents(eventCutoff, signal);
    if (!signal?.aborted) {
      const { secrets, endpoints } = await purgeSecretsAndEndpoints(now, deliveryCutoff);
      total.secrets = secrets;
      total.endpoints = endpoints;
    }
    return total;
  }

  return { disableFailingEndpoints, purge };
}

export type WebhookMaintenance = ReturnType<typeof createWebhookMaintenance>;
