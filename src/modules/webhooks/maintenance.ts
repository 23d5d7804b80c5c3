/**
 * The webhook module's upkeep, run by the worker every minute: endpoints failing for
 * WEBHOOK_DISABLE_AFTER_DAYS days are disabled (the merchant is told by an event), and old rows are
 * purged in batches so no table grows without bound — finished deliveries with their attempts,
 * events whose deliveries are gone, expired secrets, and deleted endpoints nothing refers to.
 */
import { sql } from 'kysely';
import type { WebhookSettings } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
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

  async function purgeDeliveries(cutoff: Date): Promise<number> {
    return affected(
      await sql`
        with doomed as (
          select id from webhook_deliveries where status <> 'PENDING' and updated_at < ${cutoff}
          order by updated_at limit ${BATCH} for update skip locked
        ),
        attempts as (delete from webhook_delivery_attempts a using doomed where a.delivery_id = doomed.id)
        delete from webhook_deliveries d using doomed where d.id = doomed.id`.execute(db),
    );
  }

  async function purgeEvents(cutoff: Date): Promise<number> {
    return affected(
      await sql`
        delete from events where id in (
          select e.id from events e
          where e.created_at < ${cutoff} and e.fanned_out_at is not null
            and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
          order by e.created_at limit ${BATCH} for update skip locked
        )`.execute(db),
    );
  }

  async function purgeSecretsAndEndpoints(now: Date, cutoff: Date): Promise<{ secrets: number; endpoints: number }> {
    const secrets = affected(await sql`delete from webhook_endpoint_secrets where expires_at < ${now}`.execute(db));
    const result = await sql<{ id: string }>`
      with doomed as (
        select e.id from webhook_endpoints e
        where e.deleted_at < ${cutoff} and not exists (select 1 from webhook_deliveries d where d.endpoint_id = e.id)
        limit ${BATCH} for update skip locked
      ),
      secrets as (delete from webhook_endpoint_secrets s using doomed where s.endpoint_id = doomed.id)
      delete from webhook_endpoints e using doomed where e.id = doomed.id returning e.id`.execute(db);
    return { secrets, endpoints: result.rows.length };
  }

  /** Purges in batches until nothing old is left (or the worker stops). */
  async function purge(signal?: AbortSignal): Promise<PurgeResult> {
    const now = clock.now();
    const deliveryCutoff = new Date(now.getTime() - deps.retention.deliveryRetentionDays * DAY_MS);
    const eventCutoff = new Date(now.getTime() - deps.retention.eventRetentionDays * DAY_MS);
    const total: PurgeResult = { deliveries: 0, events: 0, secrets: 0, endpoints: 0 };
    for (let batch = BATCH; batch === BATCH && !signal?.aborted; ) {
      batch = await purgeDeliveries(deliveryCutoff);
      total.deliveries += batch;
    }
    for (let batch = BATCH; batch === BATCH && !signal?.aborted; ) {
      batch = await purgeEvents(eventCutoff);
      total.events += batch;
    }
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
