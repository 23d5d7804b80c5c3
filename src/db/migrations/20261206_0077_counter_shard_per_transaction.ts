import { type Kysely, sql } from 'kysely';

/**
 * The order counters' shard is the transaction's, not each row change's (migrations 0009, 0010):
 * `txid_current()` instead of `random()`. A transaction that moves several orders of one merchant
 * (a batch of PAYIN transfers stored or settled together, decision 0053) took a random shard per
 * change, so two such transactions locked the same counter rows in different orders and deadlocked
 * (bench:chain with CHAIN_TRANSFER_BATCH_MAX=20: 37 deadlocks in a run). With one shard per
 * transaction, two transactions meet on a counter row only when their shards are equal, and then
 * on the same rows in the same order. Single-order transactions still spread over every shard.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await redefine(db, { counts: 'txid_current() % 16', volume: 'txid_current() % 8' });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await redefine(db, { counts: 'floor(random() * 16)', volume: 'floor(random() * 8)' });
}

/** Both trigger functions as 0009 and 0010 made them, with the shard from `shard`. */
async function redefine(db: Kysely<unknown>, shard: { counts: string; volume: string }) {
  await sql`
    create or replace function orders_maintain_counts() returns trigger language plpgsql as $$
    declare
      picked smallint := ${sql.raw(shard.counts)};
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
  await sql`
    create or replace function orders_add_completed_volume() returns trigger language plpgsql as $$
    begin
      insert into merchant_completed_volume (merchant_id, type, month, shard, amount_brl)
      values (new.merchant_id, new.type, date_trunc('month', new.completed_at at time zone 'America/Sao_Paulo')::date, ${sql.raw(shard.volume)}, new.amount_brl)
      on conflict (merchant_id, type, month, shard) do update set amount_brl = merchant_completed_volume.amount_brl + excluded.amount_brl;
      return null;
    end $$`.execute(db);
}
