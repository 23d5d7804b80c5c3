import { type Kysely, sql } from 'kysely';

/**
 * Order counts per merchant, type and status, kept by a trigger in the same transaction as every
 * order insert and status change, so GET /orders answers an exact `total` without counting the
 * merchant's rows on every request (a count over a million rows costs tens of milliseconds).
 *
 * Each count is spread over 16 rows (`shard`), and each change goes to a random one: a single
 * row per merchant would make every order of that merchant wait for the previous one's commit
 * (measured: the main lock wait of POST /payin). A shard may go negative; the sum is exact.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchant_order_counts')
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('shard', 'smallint', (col) => col.notNull())
    .addColumn('count', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('merchant_order_counts_pkey', ['merchant_id', 'type', 'status', 'shard'])
    .execute();

  await sql`
    create function orders_maintain_counts() returns trigger language plpgsql as $$
    declare
      picked smallint := floor(random() * 16);
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
    insert into merchant_order_counts (merchant_id, type, status, shard, count)
    select merchant_id, type, status, 0, count(*) from orders group by merchant_id, type, status`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger orders_counts_status on orders`.execute(db);
  await sql`drop trigger orders_counts_insert_delete on orders`.execute(db);
  await sql`drop function orders_maintain_counts()`.execute(db);
  await db.schema.dropTable('merchant_order_counts').execute();
}
