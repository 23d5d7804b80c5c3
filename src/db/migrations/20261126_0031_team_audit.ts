import { type Kysely, sql } from 'kysely';

/**
 * The team's changes, readable by the merchant (issue 28, GET /audit-log):
 * - an invitation the merchant withdrew (DELETE /users/invitations/{id}): its link answers 410 like
 *   a used one and it leaves the pending list; kept apart from `used_at` so the two stay told apart;
 * - the merchant an audit entry concerns, so a merchant reads its own entries by an index, never
 *   another's. NULL for operators' entries about the platform and for entries written before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_invitations').addColumn('withdrawn_at', 'timestamptz').execute();
  await db.schema.alterTable('admin_audit_log').addColumn('merchant_id', 'uuid').execute();
  await db.schema
    .createIndex('admin_audit_log_merchant_idx')
    .on('admin_audit_log')
    .columns(['merchant_id', 'id desc'])
    .where(sql.ref('merchant_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('admin_audit_log_merchant_idx').execute();
  await db.schema.alterTable('admin_audit_log').dropColumn('merchant_id').execute();
  await db.schema.alterTable('user_invitations').dropColumn('withdrawn_at').execute();
}
