import { type Kysely, sql } from 'kysely';

/**
 * The back office's reads (docs/architecture/back-office.md, docs/architecture/orders-indexes.md):
 * - `order_transactions_tx_hash_idx`: GET /admin/orders?q= finds an order by any chain signature
 *   or PIX endToEndId of its movements. `orders.tx_hash` and `orders.pix_end_to_end_id` are
 *   always written with the movement that carries the same value (orders/repo.ts
 *   recordTransaction, in the same transaction), so this one index on a table whose rows are
 *   written once or twice serves both, instead of two more indexes on `orders`, whose every
 *   status change writes every index entry. Partial: a movement without a signature costs nothing.
 * - `order_transactions_previous_tx_hashes_idx`: the signatures of replaced transfers (GIN,
 *   partial: nearly every row has none; the statement names `cardinality(…) > 0` too).
 * - `orders_operator_queue_idx`: GET /admin/orders/stuck, oldest change first: orders in transit
 *   (money arrived, not ended) and PAYINs that FAILED holding the customer's PIX. A queue, so a
 *   partial index over its states, named as literals in the statement (a generic plan proves it).
 */
const IN_TRANSIT = sql.raw(
  ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING', 'REFUNDING', 'DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED'].map((s) => `'${s}'`).join(', '),
);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index order_transactions_tx_hash_idx on order_transactions (tx_hash) where tx_hash is not null`.execute(db);
  await sql`create index order_transactions_previous_tx_hashes_idx on order_transactions using gin (previous_tx_hashes) where cardinality(previous_tx_hashes) > 0`.execute(db);
  await sql`create index orders_operator_queue_idx on orders (updated_at, id)
    where status in (${IN_TRANSIT}) or (status = 'FAILED' and type = 'PAYIN' and pix_end_to_end_id is not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index orders_operator_queue_idx`.execute(db);
  await sql`drop index order_transactions_previous_tx_hashes_idx`.execute(db);
  await sql`drop index order_transactions_tx_hash_idx`.execute(db);
}
