/**
 * The back office's view of webhook endpoints across merchants (docs/architecture/back-office.md):
 * which ones are disabled, failing or retrying, worst first, so an operator can warn a merchant
 * before its orders' notifications are lost.
 */
import type { Static } from 'typebox';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type EndpointHealthRow, healthRepo } from './health-repo.ts';
import { type EndpointHealthSchema, HEALTH_WINDOW_HOURS, type WebhookHealthSchema } from './health-schemas.ts';

type EndpointHealth = Static<typeof EndpointHealthSchema>;
type WebhookHealth = Static<typeof WebhookHealthSchema>;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toEndpointHealth(row: EndpointHealthRow): EndpointHealth {
  const ended = row.succeeded + row.failed;
  return {
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    endpointId: row.endpoint_id,
    url: row.url,
    status: row.enabled ? 'ENABLED' : 'DISABLED',
    disabledReason: row.disabled_reason,
    failingSince: iso(row.failing_since),
    deliveries: { total: row.total, succeeded: row.succeeded, failed: row.failed, pending: row.pending },
    successRate: ended === 0 ? null : Math.round((row.succeeded / ended) * 10_000) / 10_000,
    lastSuccessAt: iso(row.last_success_at),
    lastFailureAt: iso(row.last_failure_at),
    lastFailureStatusCode: row.last_failure_status_code,
    lastFailureError: row.last_failure_error,
    pendingRetries: row.pending_retries,
  };
}

/** Anything an operator should look at: disabled, failing now, a failure in the window or a retry waiting. */
export const isUnhealthy = (e: EndpointHealth): boolean => e.status === 'DISABLED' || e.failingSince !== null || e.deliveries.failed > 0 || e.pendingRetries > 0;

/** Worst first; ties by merchant and URL, so the list is stable between two reads. */
function worstFirst(a: EndpointHealth, b: EndpointHealth): number {
  const rank = (e: EndpointHealth) => (e.status === 'DISABLED' ? 0 : e.failingSince !== null ? 1 : isUnhealthy(e) ? 2 : 3);
  return (
    rank(a) - rank(b) ||
    (a.failingSince ?? '').localeCompare(b.failingSince ?? '') ||
    (a.successRate ?? 1) - (b.successRate ?? 1) ||
    b.deliveries.failed - a.deliveries.failed ||
    b.pendingRetries - a.pendingRetries ||
    a.merchantName.localeCompare(b.merchantName) ||
    a.url.localeCompare(b.url) ||
    a.endpointId.localeCompare(b.endpointId)
  );
}

export function createWebhookHealth(deps: { db: Db; clock: Clock }) {
  return {
    async list(query: { includeHealthy: boolean }): Promise<WebhookHealth> {
      const since = new Date(deps.clock.now().getTime() - HEALTH_WINDOW_HOURS * 3_600_000);
      const all = (await healthRepo.endpoints(deps.db, since)).map(toEndpointHealth);
      const shown = query.includeHealthy ? all : all.filter(isUnhealthy);
      return { windowHours: HEALTH_WINDOW_HOURS, data: shown.sort(worstFirst) };
    },
  };
}

export type WebhookHealthService = ReturnType<typeof createWebhookHealth>;
