import { type Kysely, sql } from 'kysely';

const ORDER_STATUSES = [
  'PENDING',
  'AWAITING_PAYMENT',
  'PAYMENT_RECEIVED',
  'SWAPPING',
  'TRANSFERRING',
  'AWAITING_DEPOSIT',
  'DEPOSIT_RECEIVED',
  'PIX_SENDING',
  'PIX_SENT_UNCONFIRMED',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
  'REFUNDING',
  'REFUNDED',
];
const inList = (values: string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** Quotes, orders with their transactions, and the receivers' daily usage that limits count against. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quotes')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('receiver_id', 'uuid', (col) => col.references('receivers.id'))
    .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('PAYIN', 'PAYOUT')`))
    .addColumn('chain', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.notNull())
    .addColumn('amount_token', 'numeric(30, 9)', (col) => col.notNull())
    .addColumn('exchange_rate', 'numeric(24, 8)', (col) => col.notNull())
    .addColumn('platform_fee_percentage', 'numeric(10, 8)', (col) => col.notNull())
    .addColumn('merchant_fee_percentage', 'numeric(10, 8)', (col) => col.notNull())
    .addColumn('platform_fee_amount_brl', 'numeric(18, 2)', (col) => col.notNull())
    .addColumn('merchant_fee_amount_brl', 'numeric(18, 2)', (col) => col.notNull())
    .addColumn('net_amount_brl', 'numeric(18, 2)', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_by_order_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('receiver_id', 'uuid', (col) => col.notNull().references('receivers.id'))
    .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('PAYIN', 'PAYOUT')`))
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in (${inList(ORDER_STATUSES)})`))
    .addColumn('chain', 'text', (col) => col.notNull())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('external_id', 'text')
    .addColumn('quote_id', 'uuid', (col) => col.references('quotes.id'))
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`amount_brl > 0`))
    .addColumn('amount_token', 'numeric(30, 9)', (col) => col.notNull().check(sql`amount_token >= 0`))
    .addColumn('exchange_rate', 'numeric(24, 8)', (col) => col.notNull().check(sql`exchange_rate > 0`))
    .addColumn('platform_fee_percentage', 'numeric(10, 8)', (col) => col.notNull())
    .addColumn('merchant_fee_percentage', 'numeric(10, 8)', (col) => col.notNull())
    .addColumn('platform_fee_amount_brl', 'numeric(18, 2)', (col) => col.notNull())
    .addColumn('merchant_fee_amount_brl', 'numeric(18, 2)', (col) => col.notNull())
    .addColumn('net_amount_brl', 'numeric(18, 2)', (col) => col.notNull())
    .addColumn('destination_wallet', 'text')
    .addColumn('deposit_address', 'text', (col) => col.unique())
    .addColumn('pix_txid', 'text', (col) => col.unique())
    .addColumn('pix_payment_code', 'text')
    .addColumn('pix_key', 'text')
    .addColumn('pix_key_type', 'text')
    .addColumn('recipient_name', 'text')
    .addColumn('pix_end_to_end_id', 'text')
    .addColumn('provider_transaction_id', 'text', (col) => col.unique())
    .addColumn('refund_id', 'text', (col) => col.unique())
    .addColumn('tx_hash', 'text')
    .addColumn('failure_reason', 'text')
    // The São Paulo calendar day the order counts against in the receiver's daily limits, and
    // whether that reservation was given back (orders that expired or failed before money arrived).
    .addColumn('limit_day', 'date', (col) => col.notNull())
    .addColumn('limit_released', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('completed_at', 'timestamptz')
    // Worker bookkeeping: when the next step is due, how often it failed, and the claim lease.
    .addColumn('next_step_at', 'timestamptz')
    .addColumn('step_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index orders_merchant_external_id_key on orders (merchant_id, external_id) where external_id is not null`.execute(db);
  // GET /orders: newest first within a merchant, optionally by type, status or receiver.
  await sql`create index orders_merchant_created_idx on orders (merchant_id, created_at desc, id desc)`.execute(db);
  await sql`create index orders_merchant_type_created_idx on orders (merchant_id, type, created_at desc, id desc)`.execute(db);
  await sql`create index orders_merchant_status_created_idx on orders (merchant_id, status, created_at desc, id desc)`.execute(db);
  await sql`create index orders_receiver_created_idx on orders (receiver_id, created_at desc, id desc)`.execute(db);
  // Fee tier volume: completed orders of a type in the current month.
  await sql`create index orders_merchant_volume_idx on orders (merchant_id, type, completed_at) where status = 'COMPLETED'`.execute(db);
  // The worker's claims: due steps and due expiries.
  await sql`create index orders_next_step_idx on orders (next_step_at) where next_step_at is not null`.execute(db);
  await sql`create index orders_expiry_idx on orders (expires_at) where status in ('AWAITING_PAYMENT', 'AWAITING_DEPOSIT')`.execute(db);

  await db.schema
    .createTable('order_transactions')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id'))
    .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('PIX_IN', 'PIX_OUT', 'PIX_REFUND', 'CHAIN_DEPOSIT', 'CHAIN_TRANSFER')`))
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('PENDING', 'CONFIRMED', 'FAILED')`))
    .addColumn('amount', 'numeric(30, 9)', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('chain', 'text')
    .addColumn('tx_hash', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('order_transactions_order_type_key', ['order_id', 'type'])
    .execute();

  await db.schema
    .createTable('receiver_daily_usage')
    .addColumn('receiver_id', 'uuid', (col) => col.notNull().references('receivers.id'))
    .addColumn('day', 'date', (col) => col.notNull())
    .addColumn('order_count', 'integer', (col) => col.notNull().check(sql`order_count >= 0`))
    .addColumn('amount_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`amount_brl >= 0`))
    .addPrimaryKeyConstraint('receiver_daily_usage_pkey', ['receiver_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('receiver_daily_usage').execute();
  await db.schema.dropTable('order_transactions').execute();
  await db.schema.dropTable('orders').execute();
  await db.schema.dropTable('quotes').execute();
}
