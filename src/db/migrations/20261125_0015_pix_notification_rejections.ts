import { type Kysely, sql } from 'kysely';

/**
 * `pix_notification_rejections` (issue 24, docs/architecture/pix-provider.md "Callbacks"): a notification
 * the PSP's callback received that the PSP itself did not confirm (an endToEndId it does not know,
 * another txid or amount, a refund or payout not in the notified state). It changed nothing; the
 * row is the evidence (a forgery, or a PSP answering inconsistently) for an operator. `reference`
 * is what the PSP was asked about (endToEndId, refund id, idEnvio); `notification` the parsed
 * entry as received (identifiers, amount, status: the body's secrets-free part).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pix_notification_rejections')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('received_at', 'timestamptz', (col) => col.notNull())
    .addColumn('request_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('charge_paid', 'refund_settled', 'payout_settled')`))
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('notification', 'jsonb', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('pix_notification_rejections_received_at_idx').on('pix_notification_rejections').column('received_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pix_notification_rejections').execute();
}
