import { type Kysely, sql } from 'kysely';

/**
 * The back office (issue 29, docs/architecture/back-office.md):
 * - `operators`: the platform's people, apart from merchants' users (no merchant), with one role;
 *   the same sign-in columns as `users` (Argon2id hash, sealed TOTP secret, back-off), and
 *   `disabled_at` (a disabled operator cannot sign in; their sessions end with it).
 * - `operator_sessions`: as `user_sessions`, found by the SHA-256 of the cookie's value.
 * - `approvals`: four-eyes. One operator proposes an action on a target, another approves or
 *   rejects it. The database itself refuses a decision by the proposer (CHECK), and holds at
 *   most one pending proposal per action and target (unique partial index).
 * - `admin_audit_log` becomes append-only: a trigger refuses every UPDATE, DELETE and TRUNCATE,
 *   whoever the caller is (the code has no such path; this makes sure none is ever added).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull().unique().check(sql`email = lower(email)`))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('OPERATIONS', 'COMPLIANCE', 'FINANCE', 'ADMIN', 'VIEWER')`))
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('totp_secret_sealed', 'text')
    .addColumn('totp_enabled_at', 'timestamptz')
    .addColumn('failed_sign_ins', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('operator_sessions')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('operator_id', 'uuid', (col) => col.notNull().references('operators.id'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await sql`create index operator_sessions_operator_idx on operator_sessions (operator_id, created_at) where revoked_at is null`.execute(db);

  await db.schema
    .createTable('approvals')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_type', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text', (col) => col.notNull())
    .addColumn('merchant_id', 'uuid')
    .addColumn('params', 'jsonb', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('PENDING', 'APPROVED', 'REJECTED')`))
    .addColumn('proposed_by', 'uuid', (col) => col.notNull().references('operators.id'))
    .addColumn('proposed_at', 'timestamptz', (col) => col.notNull())
    .addColumn('decided_by', 'uuid', (col) => col.references('operators.id'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('decision_reason', 'text')
    .addColumn('result', 'jsonb')
    .addCheckConstraint('approvals_four_eyes', sql`decided_by is null or decided_by <> proposed_by`)
    .addCheckConstraint('approvals_decided', sql`(status = 'PENDING') = (decided_by is null)`)
    .execute();
  await sql`create unique index approvals_one_pending_idx on approvals (action, target_id) where status = 'PENDING'`.execute(db);
  await sql`create index approvals_status_idx on approvals (status, id desc)`.execute(db);

  await sql`
    create function admin_audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'admin_audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`create trigger admin_audit_log_no_change before update or delete on admin_audit_log for each row execute function admin_audit_log_append_only()`.execute(db);
  await sql`create trigger admin_audit_log_no_truncate before truncate on admin_audit_log for each statement execute function admin_audit_log_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger admin_audit_log_no_truncate on admin_audit_log`.execute(db);
  await sql`drop trigger admin_audit_log_no_change on admin_audit_log`.execute(db);
  await sql`drop function admin_audit_log_append_only()`.execute(db);
  await db.schema.dropTable('approvals').execute();
  await db.schema.dropTable('operator_sessions').execute();
  await db.schema.dropTable('operators').execute();
}
