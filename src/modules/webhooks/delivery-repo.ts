/**
 * The delivery engine's SQL: the fair, ordered claim, its leases (`webhook_delivery_leases`, one
 * row per attempt in flight, under the platform's lease rules: platform/leases.ts) and the batched record of outcomes. (The endpoints, the log and the
 * fan-out are in repo.ts.)
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { plannedEachRun } from '../../db/prepared-statements.ts';
import { leaseFree, leaseInForce } from '../../platform/leases.ts';
import type { WebhookDeliveryStatus } from './tables.ts';

export interface ClaimedRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  attempts: number;
  retries_used: number;
  payload: Record<string, unknown>;
  url: string;
  failing: boolean;
  /** Ciphertexts of the secrets that sign now, newest first. */
  secrets: string[];
}

export interface RecordedOutcome {
  id: string;
  token: string;
  status: WebhookDeliveryStatus;
  retries_used: number;
  next_attempt_at: Date | null;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  updated_at: Date;
  attempt_id: string;
  succeeded: boolean;
  latency_ms: number;
  response_body: string | null;
}

export const deliveryRepo = {
  /** Whether any PENDING delivery is due (leased or not): a plain read of webhook_deliveries_due_idx, far cheaper than a claim that finds nothing. */
  async anyDue(db: Db, now: Date): Promise<boolean> {
    const row = await db.selectFrom('webhook_deliveries').select(sql.lit(1).as('due')).where('status', '=', 'PENDING').where('next_attempt_at', '<=', now).limit(1).executeTakeFirst();
    return row !== undefined;
  },

  /**
   * One claim, in one statement: up to `limit` due deliveries, fair across endpoints (each
   * endpoint's first before any endpoint's second), per endpoint oldest first and one per order,
   * each endpoint within its room (the cap less its leases in force across all workers, and no
   * more than this process's `allowances` entry, or `fresh` for an endpoint without one). A
   * claimed delivery gets a lease row; the delivery row itself is not written, so a claim costs no
   * entries in the deliveries' indexes. Returns what the attempts need.
   *
   * Endpoints with work are found by a skip scan of the queue, so the cost follows the number of
   * endpoints with work, not the size of the backlog, and locked FOR NO KEY UPDATE SKIP LOCKED so
   * concurrent claims take different endpoints. The lock also keeps a claim from leasing what a
   * deletion fails: `deleteEndpoint` updates the endpoint row before it fails its pending
   * deliveries, in one transaction. Two claims can still overlap when one starts
   * before the other commits: its snapshot then shows none of the other's leases. That is safe
   * because a lease is taken only where none is in force (the insert meets the other's committed
   * row and leaves it), and each endpoint's candidates are its oldest eligible rows up to its
   * room: the rows the earlier claim took come first among them and are left, so the two
   * together stay within the cap and the order.
   */
  async claimDue(
    db: Db,
    claim: { now: Date; until: Date; token: string; limit: number; cap: number; endpoints: number; allowances: ReadonlyMap<string, number>; fresh: number },
  ): Promise<ClaimedRow[]> {
    const { now, cap } = claim;
    const allowances = JSON.stringify(Object.fromEntries(claim.allowances));
    const result = await sql<ClaimedRow>`${plannedEachRun}
      with recursive queued(endpoint_id) as (
        (select endpoint_id from webhook_deliveries where status = 'PENDING' order by endpoint_id limit 1)
        union all
        select (select d.endpoint_id from webhook_deliveries d
                where d.status = 'PENDING' and d.endpoint_id > queued.endpoint_id order by d.endpoint_id limit 1)
        from queued where queued.endpoint_id is not null
      ),
      locked as (
        select e.id from webhook_endpoints e
        where e.id in (select endpoint_id from queued where endpoint_id is not null)
          and e.enabled and e.deleted_at is null
          and exists (select 1 from webhook_deliveries d
                      where d.endpoint_id = e.id and d.status = 'PENDING' and d.next_attempt_at <= ${now}
                        and not exists (select 1 from webhook_delivery_leases h where h.delivery_id = d.id and ${leaseInForce('h.claimed_until', now)}))
        order by e.id
        limit ${claim.endpoints}
        for no key update of e skip locked
      ),
      room as (
        select l.id, least(${cap}::int - b.busy, coalesce((${allowances}::jsonb ->> l.id::text)::int, ${claim.fresh}::int)) as room
        from locked l
        cross join lateral (
          select count(*)::int as busy from webhook_delivery_leases f
          where f.endpoint_id = l.id and ${leaseInForce('f.claimed_until', now)}
        ) b
      ),
      candidates as (
        select c.id, c.endpoint_id, c.order_id, c.created_at, r.room,
          row_number() over (partition by c.endpoint_id, coalesce(c.order_id, c.id::text) order by c.created_at, c.id) as of_order
        from room r
        cross join lateral (
          select d.id, d.endpoint_id, d.order_id, d.created_at from webhook_deliveries d
          where d.endpoint_id = r.id and d.status = 'PENDING' and d.next_attempt_at <= ${now}
            and not exists (select 1 from webhook_delivery_leases h where h.delivery_id = d.id and ${leaseInForce('h.claimed_until', now)})
            and (d.order_id is null or not exists (
              select 1 from webhook_delivery_leases p
              where p.endpoint_id = d.endpoint_id and ${leaseInForce('p.claimed_until', now)} and p.order_id = d.order_id))
          order by d.created_at, d.id
          limit least(r.room, ${claim.limit}::int)
        ) c
        where r.room > 0
      ),
      turns as (
        select id, endpoint_id, order_id, room, row_number() over (partition by endpoint_id order by created_at, id) as turn
        from candidates where of_order = 1
      ),
      picked as (
        select id, endpoint_id, order_id from turns where turn <= room order by turn, endpoint_id limit ${claim.limit}
      ),
      claimed as (
        insert into webhook_delivery_leases as h (delivery_id, endpoint_id, order_id, token, claimed_until)
        select id, endpoint_id, order_id, ${claim.token}, ${claim.until} from picked
        on conflict (delivery_id) do update set token = excluded.token, claimed_until = excluded.claimed_until
          where ${leaseFree('h.claimed_until', now)}
        returning h.delivery_id
      )
      select d.id, d.endpoint_id, d.event_type, d.attempts, d.retries_used, ev.payload, e.url,
        e.failing_since is not null as failing,
        coalesce((select array_agg(s.secret_ciphertext order by s.created_at desc, s.id desc) from webhook_endpoint_secrets s
                  where s.endpoint_id = d.endpoint_id and (s.expires_at is null or s.expires_at > ${now})), '{}') as secrets
      from claimed c
      join webhook_deliveries d on d.id = c.delivery_id
      join events ev on ev.id = d.event_id
      join webhook_endpoints e on e.id = d.endpoint_id
      order by d.created_at, d.id`.execute(db);
    return result.rows;
  },

  /**
   * Records many attempts' outcomes in one statement, each only while its claim is still ours
   * (our lease row, the delivery still PENDING): the lease goes, the delivery row and its attempt
   * row are written together. Returns the ids recorded; a delivery whose lease was lost to
   * another worker is left alone.
   */
  async recordOutcomes(db: Db, outcomes: RecordedOutcome[]): Promise<Set<string>> {
    if (outcomes.length === 0) return new Set();
    const rows = JSON.stringify(outcomes);
    const result = await sql<{ id: string }>`
      with v as (
        select * from jsonb_to_recordset(${rows}::jsonb) as v(
          id uuid, token uuid, status text, retries_used int, next_attempt_at timestamptz, attempted_at timestamptz,
          status_code int, error text, updated_at timestamptz, attempt_id uuid, succeeded boolean, latency_ms int, response_body text)
      ),
      released as (
        delete from webhook_delivery_leases h using v
        where h.delivery_id = v.id and h.token = v.token
        returning h.delivery_id
      ),
      updated as (
        update webhook_deliveries d set
          status = v.status, retries_used = v.retries_used, next_attempt_at = v.next_attempt_at,
          last_attempt_at = v.attempted_at, last_status_code = v.status_code, last_error = v.error,
          updated_at = v.updated_at, attempts = d.attempts + 1
        from v join released r on r.delivery_id = v.id
        where d.id = v.id and d.status = 'PENDING'
        returning d.id, d.attempts
      ),
      attempts as (
        insert into webhook_delivery_attempts (id, delivery_id, attempt_number, attempted_at, succeeded, status_code, latency_ms, error, response_body)
        select v.attempt_id, u.id, u.attempts, v.attempted_at, v.succeeded, v.status_code, v.latency_ms, v.error, v.response_body
        from updated u join v on v.id = u.id
      )
      select id from updated`.execute(db);
    return new Set(result.rows.map((row) => row.id));
  },

  /** Endpoints' health after a batch: a success clears `failing_since`, a failure sets it if unset. */
  async updateHealth(db: Db, changes: Array<{ endpointId: string; ok: boolean; at: Date }>): Promise<void> {
    if (changes.length === 0) return;
    await sql`
      update webhook_endpoints e set failing_since = case when h.ok then null else coalesce(e.failing_since, h.at) end
      from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as h("endpointId" uuid, ok boolean, at timestamptz)
      where e.id = h."endpointId" and (h.ok = (e.failing_since is not null))`.execute(db);
  },

  /** Gives claims back without an attempt (the worker stopped): any worker may take them now. */
  async release(db: Db, claims: Array<{ id: string; token: string }>) {
    if (claims.length === 0) return;
    await sql`
      delete from webhook_delivery_leases h
      using jsonb_to_recordset(${JSON.stringify(claims)}::jsonb) as v(id uuid, token uuid)
      where h.delivery_id = v.id and h.token = v.token`.execute(db);
  },

  /** An attempt of the delivery is in flight (its lease is in force). */
  async inFlight(db: Db, deliveryId: string, now: Date): Promise<boolean> {
    const row = await db
      .selectFrom('webhook_delivery_leases')
      .select('delivery_id')
      .where('delivery_id', '=', deliveryId)
      .where(leaseInForce('claimed_until', now))
      .executeTakeFirst();
    return row !== undefined;
  },
};
