/**
 * The operators' tables (migration 0033): operators, their sessions and four-eyes approvals.
 * Merged into the database's table map (`Database` in src/db/schema.ts).
 */
import type { ColumnType } from 'kysely';
import type { DefaultedTimestamp, Json, NullableTimestamp } from '../../db/schema.ts';
import type { OperatorRole } from './roles.ts';

export interface OperatorsTable {
  id: string;
  /** Lowercased. */
  email: string;
  role: OperatorRole;
  /** Argon2id PHC string; never leaves the repo. */
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_enabled_at: NullableTimestamp;
  /** The last TOTP time step (30 s since the epoch) a sign-in or enrolment used: that code and older ones are spent. */
  totp_last_step: ColumnType<string | number | null, number | null | undefined, number | null>;
  disabled_at: NullableTimestamp;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface OperatorSessionsTable {
  id: string;
  operator_id: string;
  /** SHA-256 (hex) of the cookie's random value. */
  token_hash: string;
  ip: string | null;
  user_agent: string | null;
  created_at: DefaultedTimestamp;
  last_seen_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  revoked_at: NullableTimestamp;
}

export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface ApprovalsTable {
  id: string;
  action: string;
  target_type: string;
  target_id: string;
  merchant_id: string | null;
  params: Json<Record<string, unknown>>;
  reason: string;
  status: ApprovalStatus;
  proposed_by: string;
  proposed_at: ColumnType<Date, Date | string, Date | string>;
  decided_by: string | null;
  decided_at: NullableTimestamp;
  decision_reason: string | null;
  /** What the approved action answered (e.g. the order after a refund was requested). */
  result: ColumnType<Record<string, unknown> | null, string | null, string | null>;
}

/** Migration 0043: a new operator's single-use set-password link (only its SHA-256 is kept). */
export interface OperatorInvitationsTable {
  id: string;
  email: string;
  role: OperatorRole;
  /** The audit actor who invited (an operator, or the admin token during bootstrap). */
  invited_by: string;
  /** The four-eyes proposal that created it; null during bootstrap. */
  approval_id: string | null;
  token_hash: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: NullableTimestamp;
}

/** Migration 0043: automation's credentials: a name, a role (never ADMIN), the SHA-256 of its bearer token. */
export interface ServiceAccountsTable {
  id: string;
  name: string;
  role: Exclude<OperatorRole, 'ADMIN'>;
  token_hash: string;
  created_by: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  revoked_at: NullableTimestamp;
  /** Migration 0051: set with `approval_id` when another operator approves SERVICE_ACCOUNT_ACTIVATE; until then its token is refused. */
  activated_at: NullableTimestamp;
  approval_id: string | null;
}

declare module '../../db/schema.ts' {
  interface Database {
    operator_invitations: OperatorInvitationsTable;
    service_accounts: ServiceAccountsTable;
    operators: OperatorsTable;
    operator_sessions: OperatorSessionsTable;
    approvals: ApprovalsTable;
  }
}
