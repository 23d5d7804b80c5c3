-- webhooks-claim-deliveries: The webhook dispatcher's claim: due deliveries, fair across endpoints, leased (webhooks/delivery-repo.ts claimDue)
/* planned each run */
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
                      where d.endpoint_id = e.id and d.status = 'PENDING' and d.next_attempt_at <= $1
                        and not exists (select 1 from webhook_delivery_leases h where h.delivery_id = d.id and "h"."claimed_until" >= $2))
        order by e.id
        limit $3
        for no key update of e skip locked
      ),
      room as (
        select l.id, least($4::int - b.busy, coalesce(($5::jsonb ->> l.id::text)::int, $6::int)) as room
        from locked l
        cross join lateral (
          select count(*)::int as busy from webhook_delivery_leases f
          where f.endpoint_id = l.id and "f"."claimed_until" >= $7
        ) b
      ),
      candidates as (
        select c.id, c.endpoint_id, c.order_id, c.created_at, r.room,
          row_number() over (partition by c.endpoint_id, coalesce(c.order_id, c.id::text) order by c.created_at, c.id) as of_order
        from room r
        cross join lateral (
          select d.id, d.endpoint_id, d.order_id, d.created_at from webhook_deliveries d
          where d.endpoint_id = r.id and d.status = 'PENDING' and d.next_attempt_at <= $8
            and not exists (select 1 from webhook_delivery_leases h where h.delivery_id = d.id and "h"."claimed_until" >= $9)
            and (d.order_id is null or not exists (
              select 1 from webhook_delivery_leases p
              where p.endpoint_id = d.endpoint_id and "p"."claimed_until" >= $10 and p.order_id = d.order_id))
          order by d.created_at, d.id
          limit least(r.room, $11::int)
        ) c
        where r.room > 0
      ),
      turns as (
        select id, endpoint_id, order_id, room, row_number() over (partition by endpoint_id order by created_at, id) as turn
        from candidates where of_order = 1
      ),
      picked as (
        select id, endpoint_id, order_id from turns where turn <= room order by turn, endpoint_id limit $12
      ),
      claimed as (
        insert into webhook_delivery_leases as h (delivery_id, endpoint_id, order_id, token, claimed_until)
        select id, endpoint_id, order_id, $13, $14 from picked
        on conflict (delivery_id) do update set token = excluded.token, claimed_until = excluded.claimed_until
          where ("h"."claimed_until" is null or "h"."claimed_until" < $15)
        returning h.delivery_id
      )
      select d.id, d.endpoint_id, d.event_type, d.attempts, d.retries_used, ev.payload, e.url,
        e.failing_since is not null as failing,
        coalesce((select array_agg(s.secret_ciphertext order by s.created_at desc, s.id desc) from webhook_endpoint_secrets s
                  where s.endpoint_id = d.endpoint_id and (s.expires_at is null or s.expires_at > $16)), '{}') as secrets
      from claimed c
      join webhook_deliveries d on d.id = c.delivery_id
      join events ev on ev.id = d.event_id
      join webhook_endpoints e on e.id = d.endpoint_id
      order by d.created_at, d.id
