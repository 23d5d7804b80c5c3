import { type Kysely, sql } from 'kysely';

/**
 * The order counters (0009), the completed volume (0010) and the ledger's zero-sum check (0007)
 * run once per statement instead of once per row (issue 44, bench chain-payin-backlog).
 *
 * A batch of 20 PAYIN transfers moves its 20 orders in one UPDATE, twice. Row by row, each order
 * upserted two counter rows, and all 20 of a transaction land on the same rows (one shard per
 * transaction, 0077), likely walking the versions the ones before it had left: 82 µs a call
 * on average (pg_stat_user_functions), 6,000 calls for 3,000 orders. Per statement, the changes
 * are summed from the statement's transition tables (its rows before and after) and each counter
 * row is written once, in key order (the lock order 0077 relies on). Every UPDATE of `orders` now
 * fires the trigger, status change or not (a trigger with transition tables can name no columns
 * and has no WHEN): for a claim its rows cancel out and nothing is written.
 *
 * The ledger's check summed an entry's postings again for each of its postings, at commit (7 per
 * order). Per statement it sums each entry the statement touched once, right after the insert:
 * an entry's postings must balance at the end of the statement that inserts them, so they are
 * inserted together (ledgerRepo.insertPostings, the only writer, inserts all of them in one), a
 * stricter rule than balanced by commit. A posting added later to an entry makes it sum again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger orders_counts_status on orders`.execute(db);
  await sql`drop trigger orders_counts_insert_delete on orders`.execute(db);
  await sql`drop trigger orders_completed_volume_status on orders`.execute(db);
  await sql`drop trigger orders_completed_volume_insert on orders`.execute(db);
  await sql`drop trigger ledger_postings_balanced on ledger_postings`.execute(db);

  // One function for the three events (a statement may name only the transition tables its
  // trigger has, so each event its own branch); one trigger per event, the transition tables'
  // rule. An UPDATE's change is what its rows hold after less what they held before, summed per
  // key: no join of the two tables, whose plan, cached from the first call's sizes, could be a
  // nested loop for a later UPDATE of thousands of rows. Rows that changed no counted column
  // cancel out. The volume follows the COMPLETED rows (what enters less what leaves; COMPLETED is
  // terminal, so it only grows, as before).
  await sql`drop function orders_maintain_counts()`.execute(db);
  await sql`drop function orders_add_completed_volume()`.execute(db);
  await sql`
    create function orders_maintain_counters() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        insert into merchant_order_counts as c (merchant_id, type, status, shard, count)
        select merchant_id, type, status, txid_current() % 16, sum(delta) from (
          select merchant_id, type, status, -1 as delta from old_rows
          union all
          select merchant_id, type, status, 1 from new_rows
        ) as moved
        group by 1, 2, 3 having sum(delta) <> 0 order by 1, 2, 3
        on conflict (merchant_id, type, status, shard) do update set count = c.count + excluded.count;
        insert into merchant_completed_volume as v (merchant_id, type, month, shard, amount_brl)
        select merchant_id, type, month, txid_current() % 8, sum(amount) from (
          select merchant_id, type, date_trunc('month', completed_at at time zone 'America/Sao_Paulo')::date as month, -amount_brl as amount from old_rows where status = 'COMPLETED'
          union all
          select merchant_id, type, date_trunc('month', completed_at at time zone 'America/Sao_Paulo')::date, amount_brl from new_rows where status = 'COMPLETED'
        ) as completed
        group by 1, 2, 3 having sum(amount) <> 0 order by 1, 2, 3
        on conflict (merchant_id, type, month, shard) do update set amount_brl = v.amount_brl + excluded.amount_brl;
      elsif tg_op = 'INSERT' then
        insert into merchant_order_counts as c (merchant_id, type, status, shard, count)
        select merchant_id, type, status, txid_current() % 16, count(*) from new_rows
        group by 1, 2, 3 order by 1, 2, 3
        on conflict (merchant_id, type, status, shard) do update set count = c.count + excluded.count;
        insert into merchant_completed_volume as v (merchant_id, type, month, shard, amount_brl)
        select merchant_id, type, date_trunc('month', completed_at at time zone 'America/Sao_Paulo')::date, txid_current() % 8, sum(amount_brl)
        from new_rows where status = 'COMPLETED'
        group by 1, 2, 3 order by 1, 2, 3
        on conflict (merchant_id, type, month, shard) do update set amount_brl = v.amount_brl + excluded.amount_brl;
      else
        insert into merchant_order_counts as c (merchant_id, type, status, shard, count)
        select merchant_id, type, status, txid_current() % 16, -count(*) from old_rows
        group by 1, 2, 3 order by 1, 2, 3
        on conflict (merchant_id, type, status, shard) do update set count = c.count + excluded.count;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger orders_counters_insert after insert on orders referencing new table as new_rows for each statement execute function orders_maintain_counters()`.execute(db);
  await sql`
    create trigger orders_counters_update after update on orders referencing old table as old_rows new table as new_rows
    for each statement execute function orders_maintain_counters()`.execute(db);
  await sql`create trigger orders_counters_delete after delete on orders referencing old table as old_rows for each statement execute function orders_maintain_counters()`.execute(db);

  await sql`
    create or replace function ledger_check_entry_balanced() returns trigger language plpgsql as $$
    declare
      -- An array, not a join with the transition table: its plan reads the entries' postings by
      -- index whatever the statistics say (a semi-join planned once on an empty table read them all).
      touched uuid[] := array(select distinct entry_id from new_postings);
      unbalanced uuid;
    begin
      select entry_id into unbalanced from ledger_postings where entry_id = any(touched)
      group by entry_id, currency having sum(amount) <> 0 limit 1;
      if found then
        raise exception 'ledger entry % does not sum to zero per currency', unbalanced using errcode = '23514';
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger ledger_postings_balanced after insert on ledger_postings referencing new table as new_postings
    for each statement execute function ledger_check_entry_balanced()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger ledger_postings_balanced on ledger_postings`.execute(db);
  await sql`drop trigger orders_counters_delete on orders`.execute(db);
  await sql`drop trigger orders_counters_update on orders`.execute(db);
  await sql`drop trigger orders_counters_insert on orders`.execute(db);
  await sql`drop function orders_maintain_counters()`.execute(db);

  // The row-level functions and triggers as 0007, 0009, 0010 and 0077 left them.
  await sql`
    create function orders_maintain_counts() returns trigger language plpgsql as $$
    declare
      picked smallint := txid_current() % 16;
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        insert into merchant_order_counts (merchant_id, type, status, shard, count) values (old.merchant_id, old.type, old.status, picked, -1)
        on conflict (merchant_id, type, status, shard) do update set count = merchant_order_counts.count - 1;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into merchant_order_counts (merchant_id, type, status, shard, count) values (new.merchant_id, new.type, new.status, picked, 1)
        on conflict (merchant_id, type, status, shard) do update set count = merchant_order_counts.count + 1;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger orders_counts_insert_delete after insert or delete on orders for each row execute function orders_maintain_counts()`.execute(db);
  await sql`
    create trigger orders_counts_status after update of status on orders
    for each row when (old.status is distinct from new.status) execute function orders_maintain_counts()`.execute(db);
  await sql`
    create function orders_add_completed_volume() returns trigger language plpgsql as $$
    begin
      insert into merchant_completed_volume (merchant_id, type, month, shard, amount_brl)
      values (new.merchant_id, new.type, date_trunc('month', new.completed_at at time zone 'America/Sao_Paulo')::date, txid_current() % 8, new.amount_brl)
      on conflict (merchant_id, type, month, shard) do update set amount_brl = merchant_completed_volume.amount_brl + excluded.amount_brl;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger orders_completed_volume_insert after insert on orders
    for each row when (new.status = 'COMPLETED') execute function orders_add_completed_volume()`.execute(db);
  await sql`
    create trigger orders_completed_volume_status after update of status on orders
    for each row when (new.status = 'COMPLETED' and old.status is distinct from 'COMPLETED') execute function orders_add_completed_volume()`.execute(db);
  await sql`
    create or replace function ledger_check_entry_balanced() returns trigger language plpgsql as $$
    begin
      if exists (
        select 1 from ledger_postings where entry_id = new.entry_id group by currency having sum(amount) <> 0
      ) then
        raise exception 'ledger entry % does not sum to zero per currency', new.entry_id using errcode = '23514';
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger ledger_postings_balanced after insert on ledger_postings
    deferrable initially deferred for each row execute function ledger_check_entry_balanced()`.execute(db);
}
