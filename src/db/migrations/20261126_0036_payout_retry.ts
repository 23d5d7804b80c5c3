import { type Kysely, sql } from 'kysely';

/**
 * A PAYOUT's PIX retried by two operators (issue 29, four-eyes PAYOUT_RETRY,
 * docs/architecture/back-office.md):
 * - `payout_refused_at`: when the PSP or the receiving bank refused the PAYOUT's PIX (set with
 *   FAILED; cleared by an approved retry). The tokens are then held: the stuck list shows it.
 * - `payout_attempt`: the operators' retries of it; each names its own PSP idempotency key, so the
 *   PSP sends a new PIX instead of answering the refused one again.
 * - `orders_operator_queue_idx` again, with those FAILED PAYOUTs in its predicate.
 */
const IN_TRANSIT = sql.raw(
  ['PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING', 'REFUNDING', 'DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED'].map((s) => `'${s}'`).join(', '),
);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('payout_refused_at', 'timestamptz').execute();
  await db.schema.alterTable('orders').addColumn('payout_attempt', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await sql`drop index orders_operator_queue_idx`.execute(db);
  await sql`create index orders_operator_queue_idx on orders (updated_at, id)
    where status in (${IN_TRANSIT})
       or (status = 'FAILED' and type = 'PAYIN' and pix_end_to_end_id is not null)
       or (status = 'FAILED' and type = 'PAYOUT' and payout_refused_at is not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index orders_operator_queue_idx`.execute(db);
  await sql`create index orders_operator_queue_idx on orders (updated_at, id)
    where status in (${IN_TRANSIT}) or (status = 'FAILED' and type = 'PAYIN' and pix_end_to_end_id is not null)`.execute(db);
  await db.schema.alterTable('orders').dropColumn('payout_attempt').execute();
  await db.schema.alterTable('orders').dropColumn('payout_refused_at').execute();
}
