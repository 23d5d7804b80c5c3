import { type Kysely, sql } from 'kysely';

/**
 * PAYOUT deposits on a real chain (issue 27, docs/architecture/chain.md "PAYOUT deposits").
 * `deposit_addresses`: one fresh keypair per PAYOUT reference (the order's id, or the reference of
 * its Idempotency-Key), sealed under WALLET_KEK like the other keys (kind 'deposit-address', the
 * reference as owner), with the mint and the owner's associated token account the watcher reads,
 * and the watcher's cursor: the newest signature of that account already handled. `chain_deposits`:
 * every incoming transfer the watcher handled, once per (signature, address), with what became of
 * it (a wrong mint's too, found when the address stops being watched); those not credited to their
 * order wait there for an operator (or the sweeps) to return.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deposit_addresses')
    .addColumn('reference', 'text', (col) => col.primaryKey())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('mint', 'text', (col) => col.notNull())
    .addColumn('owner_address', 'text', (col) => col.notNull().unique())
    .addColumn('token_account', 'text', (col) => col.notNull().unique())
    .addColumn('encrypted_private_key', 'text', (col) => col.notNull())
    .addColumn('key_version', 'integer', (col) => col.notNull().check(sql`key_version > 0`))
    .addColumn('last_signature', 'text')
    .addColumn('scanned_at', 'timestamptz')
    // Set once the address is no longer watched and its owner's token accounts of other mints were read.
    .addColumn('other_mints_checked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('chain_deposits')
    .addColumn('signature', 'text', (col) => col.notNull())
    .addColumn('deposit_address', 'text', (col) => col.notNull().references('deposit_addresses.owner_address'))
    .addColumn('order_id', 'uuid', (col) => col.references('orders.id'))
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('amount', 'numeric(30, 9)', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('outcome', 'text', (col) => col.notNull().check(sql`outcome in ('CREDITED', 'ORDER_FAILED', 'LATE', 'REPEATED', 'NO_ORDER', 'WRONG_MINT')`))
    .addColumn('detected_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('chain_deposits_pkey', ['signature', 'deposit_address'])
    .execute();
  await sql`create index chain_deposits_uncredited_idx on chain_deposits (detected_at) where outcome <> 'CREDITED'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chain_deposits').execute();
  await db.schema.dropTable('deposit_addresses').execute();
}
