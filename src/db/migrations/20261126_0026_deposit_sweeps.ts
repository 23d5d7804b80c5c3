import { type Kysely, sql } from 'kysely';

/**
 * Deposit sweeps (issue 27, docs/architecture/chain.md "Sweeps"): one row per credited deposit
 * address, written and committed with its signed transaction (`wire`, base64) and
 * `last_valid_block_height` before the first send, so any worker re-sends the same bytes (the
 * PAYIN transfers' rule, migration 0023). A transaction that provably can no longer land is
 * replaced, its signature kept in `previous_tx_hashes`. PENDING until it lands at SOLANA_COMMITMENT:
 * DONE (swept; `closed` when the token account was closed too), or FAILED (it landed with an error,
 * or `attempt` transactions expired unlanded): an operator's. `fee_lamports` and `rent_lamports`
 * are what the sponsor paid (rent net of the rent reclaimed: negative when it got more back).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deposit_sweeps')
    .addColumn('deposit_address', 'text', (col) => col.primaryKey().references('deposit_addresses.owner_address'))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id'))
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('amount', 'numeric(30, 9)', (col) => col.notNull().check(sql`amount > 0`))
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('PENDING', 'DONE', 'FAILED')`))
    .addColumn('tx_hash', 'text', (col) => col.notNull().unique())
    .addColumn('wire', 'text', (col) => col.notNull())
    .addColumn('last_valid_block_height', 'numeric(20, 0)', (col) => col.notNull())
    .addColumn('closes', 'boolean', (col) => col.notNull())
    .addColumn('attempt', 'integer', (col) => col.notNull().defaultTo(1).check(sql`attempt > 0`))
    .addColumn('previous_tx_hashes', sql`text[]`, (col) => col.notNull().defaultTo(sql`'{}'`))
    .addColumn('failure_reason', 'text')
    .addColumn('fee_lamports', 'numeric(20, 0)')
    .addColumn('rent_lamports', 'numeric(20, 0)')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index deposit_sweeps_pending_idx on deposit_sweeps (updated_at) where status = 'PENDING'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deposit_sweeps').execute();
}
