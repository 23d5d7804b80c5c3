import { type Kysely, sql } from 'kysely';

/**
 * Exactly one on-chain transfer per order (issue 26): the order's CHAIN_TRANSFER row keeps the
 * signed transaction (`wire`, base64) and its `last_valid_block_height`, written and committed
 * before the first send, so any worker re-sends the same bytes. When a transaction provably can
 * no longer land and is replaced, its signature moves to `previous_tx_hashes`, for audit.
 * (`orders.tx_hash`, the current signature, exists since migration 0003.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table order_transactions
    add column wire text,
    add column last_valid_block_height numeric(20, 0),
    add column previous_tx_hashes text[] not null default '{}'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table order_transactions drop column previous_tx_hashes, drop column last_valid_block_height, drop column wire`.execute(db);
}
