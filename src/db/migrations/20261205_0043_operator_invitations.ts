import { type Kysely, sql } from 'kysely';

/**
 * People are made by two people (issue 38, docs/decisions/0024-operators-made-by-two.md):
 * - `operator_invitations`: a new operator's first credential is a single-use set-password link
 *   emailed to them (as merchants' `user_invitations`); the operator row is created when they
 *   choose their password, so no password ever passes through their creator. `approval_id` is the
 *   four-eyes proposal that created it (null during bootstrap, when one person may).
 * - `service_accounts`: automation's own named, scoped (a role, never ADMIN) and revocable bearer
 *   credentials, found by the SHA-256 of the token; they act under their own name in the audit log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operator_invitations')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull().check(sql`email = lower(email)`))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('OPERATIONS', 'COMPLIANCE', 'FINANCE', 'ADMIN', 'VIEWER')`))
    .addColumn('invited_by', 'text', (col) => col.notNull())
    .addColumn('approval_id', 'uuid', (col) => col.references('approvals.id'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('service_accounts')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('OPERATIONS', 'COMPLIANCE', 'FINANCE', 'VIEWER')`))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_accounts').execute();
  await db.schema.dropTable('operator_invitations').execute();
}
