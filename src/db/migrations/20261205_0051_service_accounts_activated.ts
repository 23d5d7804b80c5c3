import { type Kysely, sql } from 'kysely';

/**
 * A service account works only once a second operator approved it (issue 38, docs/decisions/0031):
 * `activated_at` and `approval_id` (the approved SERVICE_ACCOUNT_ACTIVATE proposal) are set
 * together, by the approval, or not at all. Accounts made before this migration were made by one
 * ADMIN alone, so they start pending too: each needs its approval before its token works again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('service_accounts')
    .addColumn('activated_at', 'timestamptz')
    .addColumn('approval_id', 'uuid', (col) => col.references('approvals.id'))
    .execute();
  await sql`alter table service_accounts add constraint service_accounts_activated_by_approval check ((activated_at is null) = (approval_id is null))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('service_accounts').dropColumn('approval_id').dropColumn('activated_at').execute();
}
