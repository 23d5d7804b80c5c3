import { type Kysely, sql } from 'kysely';

/**
 * The indexes on `orders`, each kept only for a query that uses it (docs/architecture/orders-indexes.md,
 * issue 12 decision (a)). Every index costs every insert, and every status change (a status change
 * cannot be a HOT update, so it writes an entry in each index):
 * - dropped: `orders_merchant_volume_idx` (no query since the completed volume became a counter,
 *   migration 0010) and `orders_merchant_type_created_idx` (the type filter of GET /orders reads
 *   `orders_merchant_created_idx` and skips the other type, at most a few times more entries);
 * - the four provider references become partial unique indexes (`where … is not null`): they stay
 *   unique and serve the same lookups, and an order whose reference is still null (every new
 *   order's refund and payout ids, a PAYIN's deposit address, a PAYOUT's txid) costs them nothing;
 * - added: `orders_reconciliation_idx`, the queue of the two reconciliation sweeps (REFUNDING and
 *   PIX_SENT_UNCONFIRMED orders by age), which read a whole index otherwise.
 */
const REFERENCES = ['deposit_address', 'pix_txid', 'provider_transaction_id', 'refund_id'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index orders_merchant_volume_idx`.execute(db);
  await sql`drop index orders_merchant_type_created_idx`.execute(db);
  for (const column of REFERENCES) {
    await sql`alter table orders drop constraint ${sql.id(`orders_${column}_key`)}`.execute(db);
    await sql`create unique index ${sql.id(`orders_${column}_key`)} on orders (${sql.id(column)}) where ${sql.id(column)} is not null`.execute(db);
  }
  await sql`create index orders_reconciliation_idx on orders (status, updated_at) where status in ('REFUNDING', 'PIX_SENT_UNCONFIRMED')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index orders_reconciliation_idx`.execute(db);
  for (const column of REFERENCES) {
    await sql`drop index ${sql.id(`orders_${column}_key`)}`.execute(db);
    await sql`alter table orders add constraint ${sql.id(`orders_${column}_key`)} unique (${sql.id(column)})`.execute(db);
  }
  await sql`create index orders_merchant_type_created_idx on orders (merchant_id, type, created_at desc, id desc)`.execute(db);
  await sql`create index orders_merchant_volume_idx on orders (merchant_id, type, completed_at) where status = 'COMPLETED'`.execute(db);
}
