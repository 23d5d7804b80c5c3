import { type Kysely, sql } from 'kysely';

/**
 * Partner markup (issue 43, item 4; docs/decisions/0042-partner-markup.md): each merchant's own
 * terms per order type, the terms and amount a quote locked and an order carries (apart from the
 * spec's fee columns, whose meaning does not change), and what each settlement paid of markup.
 * Existing quotes, orders and settlements had none: the defaults say so.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchant_markups')
    .addColumn('merchant_id', 'uuid', (col) => col.notNull().references('merchants.id'))
    .addColumn('order_type', 'text', (col) => col.notNull().check(sql`order_type in ('PAYIN', 'PAYOUT')`))
    .addColumn('bps', 'integer', (col) => col.notNull().check(sql`bps between 0 and 10000`))
    .addColumn('flat_brl', 'numeric(18, 2)', (col) => col.notNull().check(sql`flat_brl >= 0`))
    .addColumn('cap_brl', 'numeric(18, 2)')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('merchant_markups_pkey', ['merchant_id', 'order_type'])
    .addCheckConstraint('merchant_markups_cap_check', sql`cap_brl is null or cap_brl >= flat_brl`)
    .execute();
  for (const table of ['quotes', 'orders']) {
    await db.schema
      .alterTable(table)
      .addColumn('markup_bps', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('markup_flat_brl', 'numeric(18, 2)', (col) => col.notNull().defaultTo(0))
      .addColumn('markup_cap_brl', 'numeric(18, 2)')
      .addColumn('markup_amount_brl', 'numeric(18, 2)', (col) => col.notNull().defaultTo(0).check(sql`markup_amount_brl >= 0`))
      .execute();
  }
  await db.schema.alterTable('settlements').addColumn('markup_brl', 'numeric(18, 2)', (col) => col.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('settlements').dropColumn('markup_brl').execute();
  for (const table of ['orders', 'quotes']) {
    await db.schema.alterTable(table).dropColumn('markup_amount_brl').dropColumn('markup_cap_brl').dropColumn('markup_flat_brl').dropColumn('markup_bps').execute();
  }
  await db.schema.dropTable('merchant_markups').execute();
}
