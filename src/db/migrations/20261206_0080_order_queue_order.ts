import { type Kysely, sql } from 'kysely';

/**
 * The orders' queue claims read in the order they ask for (issue 44, bench chain-payin-backlog):
 *
 * - `orders_next_step_idx` gains `id`: the lane claim orders by (next_step_at, id), so on
 *   next_step_at alone every due row was read and sorted before its LIMIT (3,000 rows, about
 *   4,000 buffers per claim in a backlog of 3,000); now the scan stops once it has its rows.
 * - `orders_batch_mates_idx`: a batch leader's mates (same chain and token, PAYMENT_RECEIVED or
 *   SWAPPING, oldest due first) came from the open PAYINs' index, every one of the token's read
 *   and sorted. It holds only PAYINs on their way to a transfer, literals in the statement.
 * - `order_transactions_transfer_batch_idx`: a batch's settlement finds its orders' transfers by
 *   the batch, which had no index: every transfer row was read to find the batch's 15.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index orders_next_step_idx`.execute(db);
  await sql`create index orders_next_step_idx on orders (next_step_at, id) where next_step_at is not null`.execute(db);
  await sql`
    create index orders_batch_mates_idx on orders (chain, token, next_step_at, id)
    where type = 'PAYIN' and status in ('PAYMENT_RECEIVED', 'SWAPPING')`.execute(db);
  await sql`create index order_transactions_transfer_batch_idx on order_transactions (transfer_batch_id) where transfer_batch_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index order_transactions_transfer_batch_idx`.execute(db);
  await sql`drop index orders_batch_mates_idx`.execute(db);
  await sql`drop index orders_next_step_idx`.execute(db);
  await sql`create index orders_next_step_idx on orders (next_step_at) where next_step_at is not null`.execute(db);
}
