/**
 * Tables of people (users) and their sign-in sessions. Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { ColumnType } from 'kysely';
import type { DefaultedTimestamp, NullableTimestamp } from '../../db/schema.ts';
import type { Role } from './roles.ts';

export interface UsersTable {
  id: string;
  merchant_id: string;
  /** Lowercased. */
  email: string;
  role: Role;
  /** Argon2id PHC string (passwords.ts); never leaves the repo. */
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_enabled_at: NullableTimestamp;
  /** The last TOTP time step (30 s since the epoch) a sign-in or enrolment used: that code and older ones are spent. */
  totp_last_step: ColumnType<string | number | null, number | null | undefined, number | null>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface UserSessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 (hex) of the cookie's random value. */
  token_hash: string;
  ip: string | null;
  user_agent: string | null;
  created_at: DefaultedTimestamp;
  last_seen_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  revoked_at: NullableTimestamp;
}

/** A password-reset link: found by the SHA-256 (hex) of its token, spent once. */
export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: NullableTimestamp;
  /** Withdrawn by the merchant (DELETE /users/invitations/{id}): the link is dead, like a used one. */
  withdrawn_at: NullableTimestamp;
}

/** An invitation link: the user its acceptance creates; found by the SHA-256 (hex) of its token, spent once. */
export interface UserInvitationsTable {
  id: string;
  merchant_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  token_hash: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: NullableTimestamp;
  /** Withdrawn by the merchant (DELETE /users/invitations/{id}): the link is dead, like a used one. */
  withdrawn_at: NullableTimestamp;
}

/** Failed sign-ins of one (scope, client address, email), known by their HMAC (sign-in-throttle.ts). */
export interface SignInFailuresTable {
  key_hash: string;
  failures: number;
  blocked_until: NullableTimestamp;
  last_failed_at: ColumnType<Date, Date | string, Date | string>;
}

declare module '../../db/schema.ts' {
  interface Database {
    sign_in_failures: SignInFailuresTable;
    users: UsersTable;
    user_sessions: UserSessionsTable;
    password_resets: PasswordResetsTable;
    user_invitations: UserInvitationsTable;
  }
}
