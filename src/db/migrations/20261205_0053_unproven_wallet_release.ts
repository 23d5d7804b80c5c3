import type { Kysely } from 'kysely';

/**
 * `orders.unproven_wallet_reserved` (decision 0034): whether the order's creation reserved its
 * amount on `unproven_wallet_daily_usage` (a PAYIN under LIMITED to a wallet not proven the
 * receiver's, migration 0045), so that the transition giving the receiver's day back gives the
 * wallet's day back too, and only for an order that took it. Orders created before stay false:
 * their reservations are not given back, as they were not when they were made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('unproven_wallet_reserved', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('unproven_wallet_reserved').execute();
}
