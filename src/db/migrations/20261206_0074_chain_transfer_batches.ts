import { type Kysely, sql } from 'kysely';

/**
 * Batched PAYIN transfers (issue 44 item 1; docs/decisions/0053-batched-payin-transfers.md): one
 * signed treasury transaction for several orders' token transfers, stored before it is ever sent
 * (as an order's CHAIN_TRANSFER row stores a single one). `order_ids` lists the orders in the
 * order of their transfer instructions; each order's CHAIN_TRANSFER row points back at the batch
 * and its instruction's index. `account_creators`: the orders whose receiver's token account this
 * transaction creates (the rent is theirs in the books). `carried_fee_lamports`: the fees of failed
 * batches this one was split from, shared out with its own when it lands (decision 0053). No foreign key from order_transactions:
 * the batch table stays on the coordinator (one transaction spans merchants), order_transactions
 * is distributed (docs/architecture/scale.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chain_transfer_batches')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('chain', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('tx_hash', 'text', (col) => col.notNull().unique())
    .addColumn('wire', 'text', (col) => col.notNull())
    .addColumn('last_valid_block_height', 'bigint', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('PENDING', 'CONFIRMED', 'FAILED', 'EXPIRED')`))
    .addColumn('attempt', 'integer', (col) => col.notNull().check(sql`attempt >= 1`))
    .addColumn('order_ids', sql`uuid[]`, (col) => col.notNull())
    .addColumn('account_creators', sql`uuid[]`, (col) => col.notNull())
    .addColumn('carried_fee_lamports', 'bigint', (col) => col.notNull().defaultTo(0).check(sql`carried_fee_lamports >= 0`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .alterTable('order_transactions')
    .addColumn('transfer_batch_id', 'uuid')
    .addColumn('instruction_index', 'integer')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('order_transactions').dropColumn('instruction_index').dropColumn('transfer_batch_id').execute();
  await db.schema.dropTable('chain_transfer_batches').execute();
}
