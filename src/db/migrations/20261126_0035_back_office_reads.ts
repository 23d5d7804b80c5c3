import { type Kysely, sql } from 'kysely';

/**
 * The back office's reads across merchants (issue 29, docs/architecture/back-office.md):
 * - the KYC review queue (GET /admin/receivers): receivers of a KYC status, the longest waiting
 *   first. Its sort key is the submission time, or the creation time of a receiver that never
 *   submitted (PENDING): the statement names the same expression, so a page is an index range.
 *   The default queue (SUBMITTED and UNDER_REVIEW together) has its own partial index, a small
 *   one (the rows awaiting a decision): with the statuses as literals the planner proves its
 *   predicate and reads the two statuses in one order, where the first index would sort them;
 * - a target's audit history (GET /admin/receivers/{id}/kyc, GET /admin/audit-log?targetType=&targetId=)
 *   and one actor's entries (actor=): both newest first by id (UUIDv7), as the listing pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index receivers_kyc_queue_idx on receivers (kyc_status, (coalesce(kyc_submitted_at, created_at)), id)`.execute(db);
  await sql`create index receivers_kyc_awaiting_idx on receivers ((coalesce(kyc_submitted_at, created_at)), id) where kyc_status in ('SUBMITTED', 'UNDER_REVIEW')`.execute(db);
  await sql`create index admin_audit_log_target_idx on admin_audit_log (target_type, target_id, id desc)`.execute(db);
  await sql`create index admin_audit_log_actor_idx on admin_audit_log (actor, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index admin_audit_log_actor_idx`.execute(db);
  await sql`drop index admin_audit_log_target_idx`.execute(db);
  await sql`drop index receivers_kyc_awaiting_idx`.execute(db);
  await sql`drop index receivers_kyc_queue_idx`.execute(db);
}
