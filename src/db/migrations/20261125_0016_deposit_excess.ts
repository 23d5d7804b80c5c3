import { type Kysely, sql } from 'kysely';

const inList = (values: string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));
const TYPES = ['PIX_IN', 'PIX_OUT', 'PIX_REFUND', 'CHAIN_DEPOSIT', 'CHAIN_TRANSFER'];
const STATUSES = ['PENDING', 'CONFIRMED', 'FAILED'];

async function replaceCheck(db: Kysely<unknown>, column: 'type' | 'status', values: string[]) {
  const name = sql.raw(`order_transactions_${column}_check`);
  await sql`alter table order_transactions drop constraint ${name}, add constraint ${name} check (${sql.ref(column)} in (${inList(values)}))`.execute(db);
}

/**
 * A PAYOUT deposit of more tokens than ordered completes the order for its ordered amount; the
 * excess is held for return (issue 24, docs/architecture/orders.md "Outcomes from providers"): the
 * order keeps how much (`excess_amount_token`), and its movement is an order transaction of its
 * own type, `CHAIN_DEPOSIT_EXCESS`, in status `HELD` until an operator returns it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('orders')
    .addColumn('excess_amount_token', 'numeric(30, 9)', (col) => col.notNull().defaultTo(0).check(sql`excess_amount_token >= 0`))
    .execute();
  await replaceCheck(db, 'type', [...TYPES, 'CHAIN_DEPOSIT_EXCESS']);
  await replaceCheck(db, 'status', [...STATUSES, 'HELD']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The excess stays recorded in the ledger (deposits_to_return); only its order-level copy goes.
  await sql`delete from order_transactions where type = 'CHAIN_DEPOSIT_EXCESS'`.execute(db);
  await replaceCheck(db, 'status', STATUSES);
  await replaceCheck(db, 'type', TYPES);
  await db.schema.alterTable('orders').dropColumn('excess_amount_token').execute();
}
