import { type Kysely, sql } from 'kysely';

/**
 * Each merchant's completed BRL volume per order type and São Paulo calendar month, kept by a
 * trigger in the transaction that completes the order, so pricing an order reads a few rows
 * instead of summing the merchant's completed orders of the month (DESIGN.md §5: the fee tier
 * follows this volume). Sharded like merchant_order_counts (0009): completions of one merchant
 * never queue on one row. A COMPLETED order is terminal, so a volume only grows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchant_completed_volume')
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('month', 'date', (col) => col.notNull())
    .addColumn('shard', 'smallint', (col) => col.notNull())
    .addColumn('amount_brl', 'numeric(20, 2)', (col) => col.notNull())
    .addPrimaryKeyConstraint('merchant_completed_volume_pkey', ['merchant_id', 'type', 'month', 'shard'])
    .execute();

  await sql`
    create function orders_add_completed_volume() returns trigger language plpgsql as $$
    begin
      insert into merchant_completed_volume (merchant_id, type, month, shard, amount_brl)
      values (new.merchant_id, new.type, date_trunc('month', new.completed_at at time zone 'America/Sao_Paulo')::date, floor(random() * 8), new.amount_brl)
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
    insert into merchant_completed_volume (merchant_id, type, month, shard, amount_brl)
    select merchant_id, type, date_trunc('month', completed_at at time zone 'America/Sao_Paulo')::date, 0, sum(amount_brl)
    from orders where status = 'COMPLETED' group by 1, 2, 3`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger orders_completed_volume_status on orders`.execute(db);
  await sql`drop trigger orders_completed_volume_insert on orders`.execute(db);
  await sql`drop function orders_add_completed_volume()`.execute(db);
  await db.schema.dropTable('merchant_completed_volume').execute();
}
