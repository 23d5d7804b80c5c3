import { type Kysely, sql } from 'kysely';

/**
 * Order counts per merchant, type and status, kept by a trigger in the same transaction as every
 * order insert and status change, so GET /orders answers an exact `total` without counting the
 * merchant's rows on every request (a count over a million rows costs tens of milliseconds).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchant_order_counts')
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('count', 'bigint', (col) => col.notNull().check(sql`count >= 0`))
    .addPrimaryKeyConstraint('merchant_order_counts_pkey', ['merchant_id', 'type', 'status'])
    .execute();

  await sql`
    create function orders_maintain_counts() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        update merchant_order_counts set count = count - 1
        where merchant_id = old.merchant_id and type = old.type and status = old.status;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into merchant_order_counts (merchant_id, type, status, count) values (new.merchant_id, new.type, new.status, 1)
        on conflict (merchant_id, type, status) do update set count = merchant_order_counts.count + 1;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger orders_counts_insert_delete after insert or delete on orders for each row execute function orders_maintain_counts()`.execute(db);
  await sql`
    create trigger orders_counts_status after update of status on orders
    for each row when (old.status is distinct from new.status) execute function orders_maintain_counts()`.execute(db);

  await sql`
    insert into merchant_order_counts (merchant_id, type, status, count)
    select merchant_id, type, status, count(*) from orders group by merchant_id, type, status`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger orders_counts_status on orders`.execute(db);
  await sql`drop trigger orders_counts_insert_delete on orders`.execute(db);
  await sql`drop function orders_maintain_counts()`.execute(db);
  await db.schema.dropTable('merchant_order_counts').execute();
}
