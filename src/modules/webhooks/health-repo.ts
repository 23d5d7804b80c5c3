/**
 * GET /admin/webhooks/health's one statement: every live endpoint of every merchant with its
 * deliveries of the window, its retries pending and its last success and failure.
 *
 * The window's deliveries are read merchant by merchant (a lateral join on
 * webhook_deliveries_merchant_created_idx), since no index orders all deliveries by creation;
 * retries pending come from the pending deliveries (the partial indexes of the queue), whatever
 * their age. A delivery row keeps its last attempt only: "last failure" is the newest delivery
 * whose last attempt failed (FAILED, or PENDING a retry), with that attempt's HTTP status and error.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface EndpointHealthRow {
  endpoint_id: string;
  merchant_id: string;
  merchant_name: string;
  url: string;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | string | null;
  total: number;
  succeeded: number;
  failed: number;
  pending: number;
  pending_retries: number;
  last_success_at: Date | string | null;
  last_failure_at: Date | string | null;
  last_failure_status_code: number | null;
  last_failure_error: string | null;
}

export const healthRepo = {
  async endpoints(db: Db, since: Date): Promise<EndpointHealthRow[]> {
    const result = await sql<EndpointHealthRow>`
      with recent as (
        select d.endpoint_id, d.status, d.attempts, d.last_attempt_at, d.last_status_code, d.last_error
        from merchants m
        cross join lateral (
          select w.endpoint_id, w.status, w.attempts, w.last_attempt_at, w.last_status_code, w.last_error
          from webhook_deliveries w where w.merchant_id = m.id and w.created_at >= ${since}
          -- Keeps the planner from flattening the lateral join into one scan of the whole index.
          offset 0
        ) d
      ),
      retrying as (
        select endpoint_id, status, attempts, last_attempt_at, last_status_code, last_error
        from webhook_deliveries where status = 'PENDING' and attempts > 0
      ),
      counts as (
        select endpoint_id, count(*)::int as total,
          (count(*) filter (where status = 'SUCCEEDED'))::int as succeeded,
          (count(*) filter (where status = 'FAILED'))::int as failed,
          (count(*) filter (where status = 'PENDING'))::int as pending,
          max(last_attempt_at) filter (where status = 'SUCCEEDED') as last_success_at
        from recent group by endpoint_id
      ),
      retries as (select endpoint_id, count(*)::int as pending_retries from retrying group by endpoint_id),
      last_failure as (
        select distinct on (endpoint_id) endpoint_id, last_attempt_at, last_status_code, last_error
        from (select * from recent where status <> 'SUCCEEDED' and attempts > 0 union all select * from retrying) f
        order by endpoint_id, last_attempt_at desc nulls last
      )
      select e.id as endpoint_id, e.merchant_id, m.name as merchant_name, e.url, e.enabled, e.disabled_reason, e.failing_since,
        coalesce(c.total, 0) as total, coalesce(c.succeeded, 0) as succeeded, coalesce(c.failed, 0) as failed, coalesce(c.pending, 0) as pending,
        coalesce(r.pending_retries, 0) as pending_retries, c.last_success_at,
        f.last_attempt_at as last_failure_at, f.last_status_code as last_failure_status_code, f.last_error as last_failure_error
      from webhook_endpoints e
      join merchants m on m.id = e.merchant_id
      left join counts c on c.endpoint_id = e.id
      left join retries r on r.endpoint_id = e.id
      left join last_failure f on f.endpoint_id = e.id
      where e.deleted_at is null`.execute(db);
    return result.rows;
  },
};
